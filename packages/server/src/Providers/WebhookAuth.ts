/**
 * Is a webhook really from the provider: Telegram's secret token, WhatsApp's signature and verify
 * challenge. The checks are one table typed over `ChatProvider`: a provider without its check
 * does not compile, and no webhook is let in unchecked.
 */
import type { ChatProvider } from "@verbatim/domain/Ids"
import { Context, Data, Effect, Layer, Option, Redacted } from "effect"
import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import { ServerConfig, type ServerSettings } from "../ServerConfig.js"

/** Why a webhook was refused; every reason answers 401. */
export class WebhookAuthError extends Data.TaggedError("WebhookAuthError")<{
  readonly provider: ChatProvider
  readonly reason: "not-configured" | "missing" | "malformed" | "mismatch"
}> {
  override get message(): string {
    return `${this.provider} webhook refused: ${credential[this.provider]} ${this.reason}`
  }
}

/** What each provider's webhook proves itself with. */
const credential: { readonly [P in ChatProvider]: string } = { telegram: "secret token", whatsapp: "signature or verify token" }

const digest = (value: string | Uint8Array): Buffer => createHash("sha256").update(value).digest()

/**
 * Equality whose time does not depend on where the inputs differ. Both sides are hashed first
 * so that inputs of different lengths (which `timingSafeEqual` rejects) leak no length either.
 * An empty secret or an empty presented value never matches: a missing header is not a secret.
 */
export const constantTimeEqual = (a: string | Uint8Array, b: string | Uint8Array): boolean =>
  a.length > 0 && b.length > 0 && timingSafeEqual(digest(a), digest(b))

/** `constantTimeEqual` against a secret hashed once: the check on every request hashes only what it was given. */
const matcher = (secret: string): (presented: string) => boolean => {
  const expected = digest(secret)
  return (presented) => secret.length > 0 && presented.length > 0 && timingSafeEqual(digest(presented), expected)
}

/** The `X-Hub-Signature-256` value Meta sends: `sha256=` + hex HMAC-SHA256 of the exact body bytes. */
export const whatsAppSignature = (appSecret: string, body: Uint8Array): string =>
  `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`

/** A request's headers as Node and the platform give them. */
export type Headers = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name]
  return typeof value === "string" ? value : undefined
}

/** One provider's check as plain functions, for the webhook front (no effect per request): the refusal, or null. */
export interface WebhookCheck {
  /** From the headers alone, before the body is read (Telegram's secret is a header). */
  readonly headers: (headers: Headers) => WebhookAuthError | null
  /** Over the exact body bytes (WhatsApp signs the body). */
  readonly body: (rawBody: Uint8Array, headers: Headers) => WebhookAuthError | null
}

/** Every chat provider's check. */
export type WebhookChecks = { readonly [P in ChatProvider]: WebhookCheck }

const passes = () => null

/** Telegram: `X-Telegram-Bot-Api-Secret-Token` against `TELEGRAM_WEBHOOK_SECRET`. */
export const telegramSecretCheck = (settings: ServerSettings) => {
  const refuse = (reason: WebhookAuthError["reason"]) => new WebhookAuthError({ provider: "telegram", reason })
  const secret = Option.map(settings.telegramWebhookSecret, (s) => matcher(Redacted.value(s)))
  return (secretHeader: string | undefined): WebhookAuthError | null => {
    if (Option.isNone(secret)) return refuse("not-configured")
    if (secretHeader === undefined) return refuse("missing")
    return secret.value(secretHeader) ? null : refuse("mismatch")
  }
}

/** WhatsApp: `X-Hub-Signature-256` over the raw body bytes (never re-serialised JSON). */
export const whatsAppSignatureCheck = (settings: ServerSettings) => {
  const refuse = (reason: WebhookAuthError["reason"]) => new WebhookAuthError({ provider: "whatsapp", reason })
  return (rawBody: Uint8Array, signatureHeader: string | undefined): WebhookAuthError | null => {
    if (Option.isNone(settings.whatsAppAppSecret)) return refuse("not-configured")
    if (signatureHeader === undefined) return refuse("missing")
    if (!/^sha256=[0-9a-fA-F]{64}$/.test(signatureHeader)) return refuse("malformed")
    const expected = whatsAppSignature(Redacted.value(settings.whatsAppAppSecret.value), rawBody)
    return constantTimeEqual(signatureHeader.toLowerCase(), expected) ? null : refuse("mismatch")
  }
}

export const webhookChecks = (settings: ServerSettings): WebhookChecks => {
  const telegram = telegramSecretCheck(settings)
  const whatsApp = whatsAppSignatureCheck(settings)
  return {
    telegram: { headers: (headers) => telegram(header(headers, "x-telegram-bot-api-secret-token")), body: passes },
    whatsapp: { headers: passes, body: (rawBody, headers) => whatsApp(rawBody, header(headers, "x-hub-signature-256")) }
  }
}

const orFail = (refusal: WebhookAuthError | null): Effect.Effect<void, WebhookAuthError> => refusal === null ? Effect.void : Effect.fail(refusal)

export class WebhookAuth extends Context.Tag("@verbatim/server/WebhookAuth")<WebhookAuth, {
  /** Check `X-Telegram-Bot-Api-Secret-Token` against `TELEGRAM_WEBHOOK_SECRET`. */
  readonly telegram: (secretHeader: string | undefined) => Effect.Effect<void, WebhookAuthError>
  /** Check `X-Hub-Signature-256` over the raw body bytes (never re-serialised JSON). */
  readonly whatsApp: (rawBody: Uint8Array, signatureHeader: string | undefined) => Effect.Effect<void, WebhookAuthError>
  /** Answer Meta's subscription check: the challenge when mode and verify token match. */
  readonly whatsAppChallenge: (params: {
    readonly mode: string
    readonly verifyToken: string
    readonly challenge: string
  }) => Effect.Effect<string, WebhookAuthError>
}>() {
  static readonly make = Effect.map(ServerConfig, (settings): WebhookAuth["Type"] => {
    const refuse = (provider: ChatProvider, reason: WebhookAuthError["reason"]) => Effect.fail(new WebhookAuthError({ provider, reason }))
    const telegram = telegramSecretCheck(settings)
    const whatsApp = whatsAppSignatureCheck(settings)
    return {
      telegram: (secretHeader) => orFail(telegram(secretHeader)),
      whatsApp: (rawBody, signatureHeader) => orFail(whatsApp(rawBody, signatureHeader)),
      whatsAppChallenge: Effect.fn("WebhookAuth.whatsAppChallenge")(function*({ challenge, mode, verifyToken }) {
        if (Option.isNone(settings.whatsAppVerifyToken)) return yield* refuse("whatsapp", "not-configured")
        const tokenMatches = constantTimeEqual(verifyToken, Redacted.value(settings.whatsAppVerifyToken.value))
        if (mode !== "subscribe" || !tokenMatches) return yield* refuse("whatsapp", "mismatch")
        return challenge
      })
    }
  })

  /** Secrets from `ServerConfig`. */
  static readonly layer = Layer.effect(WebhookAuth, WebhookAuth.make)
}
