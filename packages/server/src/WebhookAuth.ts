/** Is a webhook really from the provider: Telegram's secret token, WhatsApp's signature and verify challenge. */
import type { Provider } from "@verbatim/domain/Ids"
import { Context, Data, Effect, Layer, Option, Redacted } from "effect"
import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import { ServerConfig, type ServerSettings } from "./ServerConfig.js"

/** Why a webhook was refused; every reason answers 401. */
export class WebhookAuthError extends Data.TaggedError("WebhookAuthError")<{
  readonly provider: Provider
  readonly reason: "not-configured" | "missing" | "malformed" | "mismatch"
}> {
  override get message(): string {
    const what = this.provider === "telegram" ? "secret token" : "signature or verify token"
    return `${this.provider} webhook refused: ${what} ${this.reason}`
  }
}

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

/** The checks as plain functions, for the webhook front (no effect per request): the refusal, or null. */
export interface WebhookChecks {
  readonly telegram: (secretHeader: string | undefined) => WebhookAuthError | null
  readonly whatsApp: (rawBody: Uint8Array, signatureHeader: string | undefined) => WebhookAuthError | null
}

export const webhookChecks = (settings: ServerSettings): WebhookChecks => {
  const refuse = (provider: Provider, reason: WebhookAuthError["reason"]) => new WebhookAuthError({ provider, reason })
  const telegramSecret = Option.map(settings.telegramWebhookSecret, (secret) => matcher(Redacted.value(secret)))
  return {
    telegram: (secretHeader) => {
      if (Option.isNone(telegramSecret)) return refuse("telegram", "not-configured")
      if (secretHeader === undefined) return refuse("telegram", "missing")
      return telegramSecret.value(secretHeader) ? null : refuse("telegram", "mismatch")
    },
    whatsApp: (rawBody, signatureHeader) => {
      if (Option.isNone(settings.whatsAppAppSecret)) return refuse("whatsapp", "not-configured")
      if (signatureHeader === undefined) return refuse("whatsapp", "missing")
      if (!/^sha256=[0-9a-fA-F]{64}$/.test(signatureHeader)) return refuse("whatsapp", "malformed")
      const expected = whatsAppSignature(Redacted.value(settings.whatsAppAppSecret.value), rawBody)
      return constantTimeEqual(signatureHeader.toLowerCase(), expected) ? null : refuse("whatsapp", "mismatch")
    }
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
    const refuse = (provider: Provider, reason: WebhookAuthError["reason"]) => Effect.fail(new WebhookAuthError({ provider, reason }))
    const checks = webhookChecks(settings)
    return {
      telegram: (secretHeader) => orFail(checks.telegram(secretHeader)),
      whatsApp: (rawBody, signatureHeader) => orFail(checks.whatsApp(rawBody, signatureHeader)),
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
