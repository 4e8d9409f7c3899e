import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Either, Option, Redacted } from "effect"
import { config, notConfigured, parseAllowedSenders, ServerConfig } from "../src/ServerConfig.js"

const load = (env: Record<string, string>) =>
  ServerConfig.pipe(Effect.provide(ServerConfig.layer), Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("ServerConfig", () => {
  it.effect("starts with nothing configured and says plainly what that means", () =>
    Effect.gen(function*() {
      const settings = yield* load({})
      expect({
        ...settings,
        sessionIdle: Duration.toSeconds(settings.sessionIdle),
        webSessionIdle: Duration.toSeconds(settings.webSessionIdle),
        headersTimeout: Duration.toSeconds(settings.headersTimeout),
        requestTimeout: Duration.toSeconds(settings.requestTimeout)
      }).toEqual({
        telegramWebhookSecret: Option.none(),
        whatsAppVerifyToken: Option.none(),
        whatsAppAppSecret: Option.none(),
        allowedSenders: new Set(),
        maxBodyBytes: 1_048_576,
        maxRequestBytes: 4_194_304,
        eventsPageBytes: 4_194_304,
        headersTimeout: 10,
        requestTimeout: 30,
        maxConnections: 128,
        maxConnectionsPerAddress: 64,
        sessionIdle: 30,
        webSessionIdle: 900,
        apiToken: Option.none(),
        telegramBotToken: Option.none(),
        telegramApiBase: "https://api.telegram.org",
        whatsAppApiBase: "https://graph.facebook.com/v21.0",
        whatsAppAccessToken: Option.none(),
        whatsAppPhoneNumberId: Option.none(),
        port: 8080,
        host: "127.0.0.1",
        metricsPublic: true,
        trustedProxies: [],
        operatorReads: "none"
      })
      expect(notConfigured(settings)).toEqual([
        "TELEGRAM_WEBHOOK_SECRET is not set: Telegram webhooks are refused (401)",
        "WHATSAPP_VERIFY_TOKEN is not set: WhatsApp webhook verification is refused",
        "WHATSAPP_APP_SECRET is not set: WhatsApp webhooks are refused (401)",
        "VERBATIM_API_TOKEN is not set: the read API refuses every request",
        "TELEGRAM_BOT_TOKEN is not set: replies to Telegram are held",
        "WHATSAPP_ACCESS_TOKEN or WHATSAPP_PHONE_NUMBER_ID is not set: replies to WhatsApp are held",
        "VERBATIM_ALLOWED_SENDERS is empty: no sender's messages are captured"
      ])
    }))

  it.effect("VERBATIM_METRICS_PUBLIC=false puts the scrape behind the token", () =>
    Effect.gen(function*() {
      expect((yield* load({ VERBATIM_METRICS_PUBLIC: "false" })).metricsPublic).toBe(false)
      expect((yield* load({ VERBATIM_METRICS_PUBLIC: "true" })).metricsPublic).toBe(true)
    }))

  it.effect("VERBATIM_OPERATOR_READS is none unless set to audited or all", () =>
    Effect.gen(function*() {
      const modes = []
      for (const value of ["none", "audited", "all"]) modes.push((yield* load({ VERBATIM_OPERATOR_READS: value })).operatorReads)
      expect(modes).toEqual(["none", "audited", "all"])
    }))

  it.effect("reads every setting, secrets redacted", () =>
    Effect.gen(function*() {
      const settings = yield* load({
        TELEGRAM_WEBHOOK_SECRET: "s1",
        WHATSAPP_VERIFY_TOKEN: "v1",
        WHATSAPP_APP_SECRET: "a1",
        VERBATIM_ALLOWED_SENDERS: " telegram:100000001, whatsapp:15550001111 ,",
        VERBATIM_MAX_BODY_BYTES: "3145728",
        VERBATIM_SESSION_IDLE_SECONDS: "5",
        VERBATIM_API_TOKEN: "t1",
        TELEGRAM_BOT_TOKEN: "123:abc",
        TELEGRAM_API_BASE: "http://127.0.0.1:9001",
        WHATSAPP_API_BASE: "http://127.0.0.1:9002/v21.0",
        WHATSAPP_ACCESS_TOKEN: "w1",
        WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
        PORT: "9000",
        HOST: "0.0.0.0",
        VERBATIM_EVENTS_PAGE_BYTES: "65536",
        VERBATIM_HEADERS_TIMEOUT_SECONDS: "5",
        VERBATIM_REQUEST_TIMEOUT_SECONDS: "60",
        VERBATIM_MAX_CONNECTIONS: "16",
        VERBATIM_TRUSTED_PROXIES: " 10.0.0.5, 172.16.0.0/12 ,::1"
      })
      const reveal = Option.map(Redacted.value)
      expect({
        secrets: [settings.telegramWebhookSecret, settings.whatsAppVerifyToken, settings.whatsAppAppSecret, settings.apiToken, settings.telegramBotToken, settings.whatsAppAccessToken].map(reveal),
        shown: String(Option.getOrThrow(settings.whatsAppAppSecret)),
        allowed: [...settings.allowedSenders],
        rest: [settings.maxBodyBytes, Duration.toSeconds(settings.sessionIdle), settings.telegramApiBase, settings.whatsAppApiBase, settings.whatsAppPhoneNumberId, settings.port, settings.host],
        limits: [settings.eventsPageBytes, Duration.toSeconds(settings.headersTimeout), Duration.toSeconds(settings.requestTimeout), settings.maxConnections],
        proxies: settings.trustedProxies,
        missing: notConfigured(settings)
      }).toEqual({
        secrets: ["s1", "v1", "a1", "t1", "123:abc", "w1"].map(Option.some),
        shown: "<redacted>",
        allowed: ["telegram:100000001", "whatsapp:15550001111"],
        rest: [3_145_728, 5, "http://127.0.0.1:9001", "http://127.0.0.1:9002/v21.0", Option.some("106540352242922"), 9000, "0.0.0.0"],
        limits: [65_536, 5, 60, 16],
        proxies: ["10.0.0.5", "172.16.0.0/12", "::1"],
        missing: []
      })
    }))

  it("names a bad allow-list entry", () => {
    expect([
      parseAllowedSenders("telegram:1,signal:2"),
      parseAllowedSenders("telegram"),
      parseAllowedSenders("whatsapp:+15550001111"),
      parseAllowedSenders("telegram:abc"),
      parseAllowedSenders(""),
      parseAllowedSenders(" telegram:100000001 , whatsapp:15550001111 ")
    ]).toEqual([
      Either.left("entry \"signal:2\" is not provider:senderId with provider telegram or whatsapp"),
      Either.left("entry \"telegram\" is not provider:senderId with provider telegram or whatsapp"),
      Either.left(
        "entry \"whatsapp:+15550001111\": a WhatsApp sender is the phone number as WhatsApp sends it, digits with the country code and no + or separators (whatsapp:15550001111)"
      ),
      Either.left("entry \"telegram:abc\": a Telegram sender is the user's numeric id (telegram:100000001)"),
      Either.right(new Set()),
      Either.right(new Set(["telegram:100000001", "whatsapp:15550001111"]))
    ])
  })

  it.effect("fails start-up on an invalid number, allow-list or empty secret, naming the variable", () =>
    Effect.gen(function*() {
      const provider = (env: Record<string, string>) => ConfigProvider.fromMap(new Map(Object.entries(env)))
      const errors = yield* Effect.all([
        Effect.flip(Effect.withConfigProvider(config, provider({ VERBATIM_MAX_BODY_BYTES: "0" }))),
        Effect.flip(Effect.withConfigProvider(config, provider({ VERBATIM_ALLOWED_SENDERS: "bob" }))),
        Effect.flip(Effect.withConfigProvider(config, provider({ VERBATIM_API_TOKEN: " " }))),
        Effect.flip(Effect.withConfigProvider(config, provider({ WHATSAPP_APP_SECRET: "" }))),
        Effect.flip(Effect.withConfigProvider(config, provider({ TELEGRAM_WEBHOOK_SECRET: "" }))),
        Effect.flip(Effect.withConfigProvider(config, provider({ WHATSAPP_VERIFY_TOKEN: "\t" }))),
        Effect.flip(Effect.withConfigProvider(config, provider({ VERBATIM_MAX_CONNECTIONS: "-1" }))),
        Effect.flip(Effect.withConfigProvider(config, provider({ VERBATIM_HEADERS_TIMEOUT_SECONDS: "31" }))),
        Effect.flip(Effect.withConfigProvider(config, provider({ VERBATIM_TRUSTED_PROXIES: "10.0.0.1, proxy.internal" }))),
        Effect.flip(Effect.withConfigProvider(config, provider({ VERBATIM_TRUSTED_PROXIES: "10.0.0.0/33" }))),
        Effect.flip(Effect.withConfigProvider(config, provider({ VERBATIM_OPERATOR_READS: "some" })))
      ])
      expect(errors.map(String)).toEqual([
        "(Invalid data at VERBATIM_MAX_BODY_BYTES: \"must be a positive whole number\")",
        "(Invalid data at VERBATIM_ALLOWED_SENDERS: \"entry \"bob\" is not provider:senderId with provider telegram or whatsapp\")",
        "(Invalid data at VERBATIM_API_TOKEN: \"is set but empty; unset it to have a token generated, or set a token\")",
        "(Invalid data at WHATSAPP_APP_SECRET: \"is set but empty; unset it or set the secret\")",
        "(Invalid data at TELEGRAM_WEBHOOK_SECRET: \"is set but empty; unset it or set the secret\")",
        "(Invalid data at WHATSAPP_VERIFY_TOKEN: \"is set but empty; unset it or set the secret\")",
        "(Invalid data at VERBATIM_MAX_CONNECTIONS: \"must be a positive whole number\")",
        "(Invalid data at VERBATIM_HEADERS_TIMEOUT_SECONDS: \"must not be longer than VERBATIM_REQUEST_TIMEOUT_SECONDS\")",
        "(Invalid data at VERBATIM_TRUSTED_PROXIES: \"\"proxy.internal\" is not an IP address or a range such as 10.0.0.0/8\")",
        "(Invalid data at VERBATIM_TRUSTED_PROXIES: \"\"10.0.0.0/33\" is not an IP address or a range such as 10.0.0.0/8\")",
        "(Invalid data at VERBATIM_OPERATOR_READS: \"Expected one of (none, audited, all) but received \"some\"\")"
      ])
    }))
})
