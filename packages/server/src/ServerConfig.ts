/** Server settings read through `Config`; anything optional left unset is reported, never fatal. */
import { type ChatProvider, type UserId, userIdOf } from "@verbatim/domain/Ids"
import { chatProviders, isChatProvider } from "@verbatim/domain/Inbound/Providers"
import { type OperatorReadsMode, OperatorReadsMode as Modes } from "@verbatim/domain/OperatorReads/Mode"
import { Config, ConfigError, Context, Duration, Either, Layer, Option, Redacted } from "effect"
import { parseTrustedProxies, type TrustedProxies } from "./Web/ClientAddress.js"

/** Everything the HTTP surface and the provider clients need. */
export interface ServerSettings {
  readonly telegramWebhookSecret: Option.Option<Redacted.Redacted>
  readonly whatsAppVerifyToken: Option.Option<Redacted.Redacted>
  readonly whatsAppAppSecret: Option.Option<Redacted.Redacted>
  /** `provider:senderId` of everyone whose messages are captured. */
  readonly allowedSenders: ReadonlySet<UserId>
  /** Bytes of one webhook body. */
  readonly maxBodyBytes: number
  /** Bytes of one request body to the API or a page's form (a message of 1 MiB, encoded, fits). */
  readonly maxRequestBytes: number
  /** Payload bytes of one `GET /api/events` page (a page always holds at least one event). */
  readonly eventsPageBytes: number
  /** A request's headers must arrive within this, and the whole request within `requestTimeout`. */
  readonly headersTimeout: Duration.Duration
  readonly requestTimeout: Duration.Duration
  /** Connections open at once; more are closed as they arrive. */
  readonly maxConnections: number
  /** Connections one address may hold open at once (the trusted proxies' excepted). */
  readonly maxConnectionsPerAddress: number
  readonly sessionIdle: Duration.Duration
  /** A session captured on the web pages closes after this much quiet: someone typing a batch on a page takes longer than a chat's forwards. */
  readonly webSessionIdle: Duration.Duration
  readonly apiToken: Option.Option<Redacted.Redacted>
  readonly telegramBotToken: Option.Option<Redacted.Redacted>
  readonly telegramApiBase: string
  readonly whatsAppApiBase: string
  readonly whatsAppAccessToken: Option.Option<Redacted.Redacted>
  readonly whatsAppPhoneNumberId: Option.Option<string>
  readonly port: number
  readonly host: string
  /** `/metrics` without a token (the default), or behind the read API's bearer token. */
  readonly metricsPublic: boolean
  /** Reverse proxies whose `X-Forwarded-For` names the client (`VERBATIM_TRUSTED_PROXIES`); none by default. */
  readonly trustedProxies: TrustedProxies
  /** What the operator reads of other users' data (`VERBATIM_OPERATOR_READS`): `none` unless set. */
  readonly operatorReads: OperatorReadsMode
}

/** Why a sender id is not how its provider names a sender (both name a sender by digits), or null. */
const senderProblem: { readonly [P in ChatProvider]: (entry: string, id: string) => string | null } = {
  telegram: (entry, id) => (/^\d+$/.test(id) ? null : `entry "${entry}": a Telegram sender is the user's numeric id (telegram:100000001)`),
  whatsapp: (entry, id) =>
    /[+\-().]/.test(id)
      ? `entry "${entry}": a WhatsApp sender is the phone number as WhatsApp sends it, digits with the country code and no + or separators (whatsapp:15550001111)`
      : null
}

/** Parse `telegram:100000001,whatsapp:15550001111` (blank entries ignored); the error names the bad entry. */
export const parseAllowedSenders = (text: string): Either.Either<ReadonlySet<UserId>, string> => {
  const entries = text.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "")
  const users: Array<UserId> = []
  for (const entry of entries) {
    const match = /^([a-z]+):(\S+)$/.exec(entry)
    const provider = match?.[1]
    if (match === null || provider === undefined || !isChatProvider(provider) || match[2] === undefined) {
      return Either.left(`entry "${entry}" is not provider:senderId with provider ${chatProviders.join(" or ")}`)
    }
    const problem = senderProblem[provider](entry, match[2])
    if (problem !== null) return Either.left(problem)
    users.push(userIdOf(provider, match[2]))
  }
  return Either.right(new Set(users))
}

/**
 * A secret that, when set, is not blank: set but empty (an unset variable in a compose file, say)
 * it would match an empty header or sign with an empty key, and let anyone in.
 */
const secret = (name: string, advice = "unset it or set the secret") =>
  Config.string(name).pipe(
    Config.validate({ message: `is set but empty; ${advice}`, validation: (value) => value.trim() !== "" }),
    Config.map(Redacted.make)
  )

const positiveInt = (name: string) =>
  Config.integer(name).pipe(Config.validate({ message: "must be a positive whole number", validation: (n) => n > 0 }))

/** The settings as a `Config`, with the documented defaults. */
export const config: Config.Config<ServerSettings> = Config.all({
  telegramWebhookSecret: Config.option(secret("TELEGRAM_WEBHOOK_SECRET")),
  whatsAppVerifyToken: Config.option(secret("WHATSAPP_VERIFY_TOKEN")),
  whatsAppAppSecret: Config.option(secret("WHATSAPP_APP_SECRET")),
  allowedSenders: Config.string("VERBATIM_ALLOWED_SENDERS").pipe(
    Config.withDefault(""),
    Config.mapOrFail((text) =>
      Either.mapLeft(parseAllowedSenders(text), (message) => ConfigError.InvalidData(["VERBATIM_ALLOWED_SENDERS"], message))
    )
  ),
  maxBodyBytes: positiveInt("VERBATIM_MAX_BODY_BYTES").pipe(Config.withDefault(1024 * 1024)),
  maxRequestBytes: positiveInt("VERBATIM_MAX_REQUEST_BYTES").pipe(Config.withDefault(4 * 1024 * 1024)),
  eventsPageBytes: positiveInt("VERBATIM_EVENTS_PAGE_BYTES").pipe(Config.withDefault(4 * 1024 * 1024)),
  headersTimeout: positiveInt("VERBATIM_HEADERS_TIMEOUT_SECONDS").pipe(Config.withDefault(10), Config.map(Duration.seconds)),
  requestTimeout: positiveInt("VERBATIM_REQUEST_TIMEOUT_SECONDS").pipe(Config.withDefault(30), Config.map(Duration.seconds)),
  maxConnections: positiveInt("VERBATIM_MAX_CONNECTIONS").pipe(Config.withDefault(128)),
  maxConnectionsPerAddress: positiveInt("VERBATIM_MAX_CONNECTIONS_PER_ADDRESS").pipe(Config.withDefault(64)),
  sessionIdle: positiveInt("VERBATIM_SESSION_IDLE_SECONDS").pipe(Config.withDefault(30), Config.map(Duration.seconds)),
  webSessionIdle: positiveInt("VERBATIM_WEB_SESSION_IDLE_SECONDS").pipe(Config.withDefault(900), Config.map(Duration.seconds)),
  apiToken: Config.option(secret("VERBATIM_API_TOKEN", "unset it to have a token generated, or set a token")),
  telegramBotToken: Config.option(Config.redacted("TELEGRAM_BOT_TOKEN")),
  telegramApiBase: Config.string("TELEGRAM_API_BASE").pipe(Config.withDefault("https://api.telegram.org")),
  whatsAppApiBase: Config.string("WHATSAPP_API_BASE").pipe(Config.withDefault("https://graph.facebook.com/v21.0")),
  whatsAppAccessToken: Config.option(Config.redacted("WHATSAPP_ACCESS_TOKEN")),
  whatsAppPhoneNumberId: Config.option(Config.string("WHATSAPP_PHONE_NUMBER_ID")),
  port: Config.port("PORT").pipe(Config.withDefault(8080)),
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  metricsPublic: Config.boolean("VERBATIM_METRICS_PUBLIC").pipe(Config.withDefault(true)),
  trustedProxies: Config.string("VERBATIM_TRUSTED_PROXIES").pipe(
    Config.withDefault(""),
    Config.mapOrFail((text) =>
      Either.mapLeft(parseTrustedProxies(text), (message) => ConfigError.InvalidData(["VERBATIM_TRUSTED_PROXIES"], message))
    )
  ),
  operatorReads: Config.literal(...Modes.literals)("VERBATIM_OPERATOR_READS").pipe(Config.withDefault("none" as const))
}).pipe(
  // Node refuses a headers timeout longer than the request's: say which settings, not a stack.
  Config.mapOrFail((settings) =>
    Duration.greaterThan(settings.headersTimeout, settings.requestTimeout)
      ? Either.left(ConfigError.InvalidData(
        ["VERBATIM_HEADERS_TIMEOUT_SECONDS"],
        "must not be longer than VERBATIM_REQUEST_TIMEOUT_SECONDS"
      ))
      : Either.right(settings)
  )
)

const unset = (value: Option.Option<unknown>, message: string): ReadonlyArray<string> => (Option.isNone(value) ? [message] : [])

/**
 * What is not configured and what that means, in plain words, for the start-up log. Empty when
 * everything is set.
 */
export const notConfigured = (settings: ServerSettings): ReadonlyArray<string> => [
  ...unset(settings.telegramWebhookSecret, "TELEGRAM_WEBHOOK_SECRET is not set: Telegram webhooks are refused (401)"),
  ...unset(settings.whatsAppVerifyToken, "WHATSAPP_VERIFY_TOKEN is not set: WhatsApp webhook verification is refused"),
  ...unset(settings.whatsAppAppSecret, "WHATSAPP_APP_SECRET is not set: WhatsApp webhooks are refused (401)"),
  ...unset(settings.apiToken, "VERBATIM_API_TOKEN is not set: the read API refuses every request"),
  ...unset(settings.telegramBotToken, "TELEGRAM_BOT_TOKEN is not set: replies to Telegram are held"),
  ...unset(
    Option.all([settings.whatsAppAccessToken, settings.whatsAppPhoneNumberId]),
    "WHATSAPP_ACCESS_TOKEN or WHATSAPP_PHONE_NUMBER_ID is not set: replies to WhatsApp are held"
  ),
  ...(settings.allowedSenders.size === 0 ? ["VERBATIM_ALLOWED_SENDERS is empty: no sender's messages are captured"] : [])
]

/** Test settings: nothing configured, small defaults, overridable field by field. */
const testSettings: ServerSettings = {
  telegramWebhookSecret: Option.none(),
  whatsAppVerifyToken: Option.none(),
  whatsAppAppSecret: Option.none(),
  allowedSenders: new Set(),
  maxBodyBytes: 1024 * 1024,
  maxRequestBytes: 4 * 1024 * 1024,
  eventsPageBytes: 4 * 1024 * 1024,
  headersTimeout: Duration.seconds(10),
  requestTimeout: Duration.seconds(30),
  maxConnections: 128,
  maxConnectionsPerAddress: 64,
  sessionIdle: Duration.seconds(30),
  webSessionIdle: Duration.seconds(900),
  apiToken: Option.none(),
  telegramBotToken: Option.none(),
  telegramApiBase: "http://127.0.0.1:1",
  whatsAppApiBase: "http://127.0.0.1:1",
  whatsAppAccessToken: Option.none(),
  whatsAppPhoneNumberId: Option.none(),
  port: 0,
  host: "127.0.0.1",
  metricsPublic: true,
  trustedProxies: [],
  // Tests read every user's notes unless they say otherwise; `serve` reads none by default.
  operatorReads: "all"
}

export class ServerConfig extends Context.Tag("@verbatim/server/ServerConfig")<ServerConfig, ServerSettings>() {
  /** From the environment (through the current `ConfigProvider`). */
  static readonly layer = Layer.effect(ServerConfig, config)
  /** Fixed settings for tests: nothing configured unless overridden. */
  static readonly layerTest = (overrides: Partial<ServerSettings> = {}) =>
    Layer.succeed(ServerConfig, { ...testSettings, ...overrides })
}
