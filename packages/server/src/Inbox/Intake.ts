/**
 * A webhook request from its bytes to the items to capture, as plain functions (no effect per
 * request): the provider's secret or signature checked, the body decoded as UTF-8 JSON of the
 * provider's schema and normalised, and each item that cannot be stored exactly set aside with
 * its reason. A refusal says what to answer (401, 400 or 413) and why, never quoting the body.
 */
import { BadRequest, PayloadTooLarge, Unauthorized } from "@verbatim/domain/Api"
import type { ChatProvider } from "@verbatim/domain/Ids"
import * as Inbound from "@verbatim/domain/Inbound/Inbound"
import { chatProviderRules, chatProviders } from "@verbatim/domain/Inbound/Providers"
import { DateTime, Either } from "effect"
import type * as Metrics from "../Metrics.js"
import type { Headers, WebhookChecks } from "../Providers/WebhookAuth.js"

/** The webhook POSTs, by path: `/webhooks/<provider>` for every chat provider. */
export const webhookPaths: Readonly<Record<string, ChatProvider>> = Object.fromEntries(chatProviders.map((p) => [`/webhooks/${p}`, p]))

/** Why a request is refused: the answer's status and body, the metric's outcome and the log's reason. */
export interface Refusal {
  readonly status: 400 | 401 | 413
  readonly body: BadRequest | Unauthorized | PayloadTooLarge
  readonly outcome: Metrics.WebhookOutcome
  readonly reason: string
}

/** What a request delivers: the items to handle, and the reasons any were refused (answered 400 once the rest are handled). */
export interface Accepted {
  readonly items: ReadonlyArray<Inbound.Inbound>
  readonly refusals: ReadonlyArray<string>
}

const unauthorized = (message: string): Refusal => ({ status: 401, body: new Unauthorized({ message }), outcome: "unauthorized", reason: message })

export const tooLarge = (limitBytes: number): Refusal => ({
  status: 413,
  body: new PayloadTooLarge({ limitBytes }),
  outcome: "too-large",
  reason: `the body is over ${limitBytes} bytes`
})

/** A refusal before the body is read (Telegram's secret is a header): the body need not be read at all. */
export const checkHeaders = (checks: WebhookChecks, provider: ChatProvider, headers: Headers): Refusal | null => {
  const refused = checks[provider].headers(headers)
  return refused === null ? null : unauthorized(refused.message)
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

const badRequest = (message: string): Refusal => ({
  status: 400,
  body: new BadRequest({ message }),
  outcome: "bad-request",
  // The decoder's message may quote the body, so the log says only what was refused.
  reason: "the body is not a valid update"
})

/** Check the body (WhatsApp's signature), decode and normalise it as its provider's rules say; `receivedAt` stands for Telegram's missing times. */
export const fromBody = (
  checks: WebhookChecks,
  provider: ChatProvider,
  headers: Headers,
  bytes: Uint8Array,
  receivedAt: number
): Either.Either<Accepted, Refusal> => {
  const refused = checks[provider].body(bytes, headers)
  if (refused !== null) return Either.left(unauthorized(refused.message))
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return Either.left(badRequest("body is not UTF-8 text"))
  }
  const decoded = chatProviderRules[provider].normalise(text, DateTime.unsafeMake(receivedAt))
  if (Either.isLeft(decoded)) return Either.left(badRequest(decoded.left.message))
  // Every storable item is handled before a refusal answers, so one that cannot be stored
  // exactly cannot keep the others of its body from being recorded.
  const refusals: Array<string> = []
  const items = decoded.right.filter((item) => {
    const problem = Inbound.unstorable(item)
    if (problem !== null) refusals.push(problem)
    return problem === null
  })
  return Either.right({ items, refusals })
}
