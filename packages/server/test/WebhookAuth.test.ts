import { describe, expect, it } from "@effect/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { Effect, Either, Option, Redacted } from "effect"
import fc from "fast-check"
import { ServerConfig } from "../src/ServerConfig.js"
import { constantTimeEqual, WebhookAuth, WebhookAuthError, whatsAppSignature } from "../src/Providers/WebhookAuth.js"

const appSecret = "app-secret-🔑"
const configured = ServerConfig.layerTest({
  telegramWebhookSecret: Option.some(Redacted.make("tg-secret")),
  whatsAppAppSecret: Option.some(Redacted.make(appSecret)),
  whatsAppVerifyToken: Option.some(Redacted.make("verify-me"))
})
const unconfigured = ServerConfig.layerTest()

const provide = <A, E>(effect: Effect.Effect<A, E, WebhookAuth>, settings = configured) =>
  effect.pipe(Effect.provide(WebhookAuth.layer), Effect.provide(settings))

/** Non-ASCII as Meta sends it (an escape and a raw emoji, spaced): re-serialising changes the bytes. */
const rawText = String.raw`{ "object": "whatsapp_business_account", "entry": [ { "text": "caf\u00e9 😮" } ] }`
const rawBody = new TextEncoder().encode(rawText)
const refused = (provider: "telegram" | "whatsapp", reason: WebhookAuthError["reason"]) =>
  Either.left(new WebhookAuthError({ provider, reason }))

describe("WhatsApp signature", () => {
  it("is sha256= and the hex HMAC-SHA256 of the bytes (known answer)", () => {
    expect(whatsAppSignature("It's a Secret to Everybody", new TextEncoder().encode("Hello, World!"))).toBe(
      "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
    )
  })

  it.effect("accepts the signature over the raw bytes and refuses everything else", () =>
    Effect.gen(function*() {
      const auth = yield* WebhookAuth
      const signature = whatsAppSignature(appSecret, rawBody)
      const reserialised = new TextEncoder().encode(JSON.stringify(JSON.parse(rawText)))
      const results = yield* Effect.all([
        auth.whatsApp(rawBody, signature),
        auth.whatsApp(rawBody, signature.toUpperCase().replace("SHA256=", "sha256=")),
        auth.whatsApp(reserialised, signature),
        auth.whatsApp(rawBody, whatsAppSignature("another secret", rawBody)),
        auth.whatsApp(rawBody, signature.slice("sha256=".length)),
        auth.whatsApp(rawBody, undefined)
      ].map(Effect.either))
      expect(results).toEqual([
        Either.right(undefined),
        Either.right(undefined),
        refused("whatsapp", "mismatch"),
        refused("whatsapp", "mismatch"),
        refused("whatsapp", "malformed"),
        refused("whatsapp", "missing")
      ])
    }).pipe(provide))

  it.effect("refuses every body while the app secret is not configured", () =>
    Effect.gen(function*() {
      const auth = yield* WebhookAuth
      const result = yield* Effect.either(auth.whatsApp(rawBody, whatsAppSignature("", rawBody)))
      expect(result).toEqual(refused("whatsapp", "not-configured"))
    }).pipe((effect) => provide(effect, unconfigured)))

  it("fails when any single byte of the body changes", () => {
    fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.nat(), fc.integer({ min: 1, max: 255 }), async (body, at, delta) => {
        const tampered = Uint8Array.from(body)
        const index = at % body.length
        tampered[index] = (tampered[index]! + delta) % 256
        const result = await Effect.runPromise(provide(
          Effect.flatMap(WebhookAuth, (auth) => Effect.either(auth.whatsApp(tampered, whatsAppSignature(appSecret, body))))
        ))
        expect(result).toEqual(refused("whatsapp", "mismatch"))
      }),
      { numRuns: propertyRuns(200) }
    )
  })
})

describe("Telegram secret token and WhatsApp verification", () => {
  it.effect("accepts only the configured Telegram secret", () =>
    Effect.gen(function*() {
      const auth = yield* WebhookAuth
      const results = yield* Effect.all(
        [auth.telegram("tg-secret"), auth.telegram("tg-secreT"), auth.telegram("tg-secret "), auth.telegram(""), auth.telegram(undefined)]
          .map(Effect.either)
      )
      expect(results).toEqual([
        Either.right(undefined),
        refused("telegram", "mismatch"),
        refused("telegram", "mismatch"),
        refused("telegram", "mismatch"),
        refused("telegram", "missing")
      ])
    }).pipe(provide))

  it.effect("answers the hub.challenge only for mode subscribe with the right verify token", () =>
    Effect.gen(function*() {
      const auth = yield* WebhookAuth
      const results = yield* Effect.all([
        auth.whatsAppChallenge({ mode: "subscribe", verifyToken: "verify-me", challenge: "1158201444" }),
        auth.whatsAppChallenge({ mode: "subscribe", verifyToken: "verify-you", challenge: "1158201444" }),
        auth.whatsAppChallenge({ mode: "unsubscribe", verifyToken: "verify-me", challenge: "1158201444" })
      ].map(Effect.either))
      expect(results).toEqual([Either.right("1158201444"), refused("whatsapp", "mismatch"), refused("whatsapp", "mismatch")])
    }).pipe(provide))

  it.effect("refuses Telegram and verification when nothing is configured", () =>
    Effect.gen(function*() {
      const auth = yield* WebhookAuth
      const results = yield* Effect.all([
        auth.telegram("anything"),
        auth.whatsAppChallenge({ mode: "subscribe", verifyToken: "", challenge: "1" })
      ].map(Effect.either))
      expect(results).toEqual([refused("telegram", "not-configured"), refused("whatsapp", "not-configured")])
    }).pipe((effect) => provide(effect, unconfigured)))
})

describe("constant-time equality", () => {
  it("an empty secret or an empty presented value never matches", () => {
    expect([
      constantTimeEqual("", ""),
      constantTimeEqual("secret", ""),
      constantTimeEqual("", "secret"),
      constantTimeEqual(new Uint8Array(), new Uint8Array()),
      constantTimeEqual("secret", "secret")
    ]).toEqual([false, false, false, false, true])
  })
})
