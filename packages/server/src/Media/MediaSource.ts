/**
 * Fetching an attachment's bytes from the provider that holds them, after the webhook has answered.
 * Telegram: `getFile` for a path, then `/file/bot<token>/<path>` (bots may download up to 20 MB).
 * WhatsApp: `GET /<media-id>` for a short-lived URL, then that URL with the bearer token (a media id
 * lives 7 days, a URL 5 minutes: an expired URL is asked for again once). Bodies are read as a
 * stream and refused past the limit, so an oversized file never sits whole in memory.
 */
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import type { AttachmentKind } from "@verbatim/domain/Attachment"
import type { ChatProvider, Provider } from "@verbatim/domain/Ids"
import { isChatProvider } from "@verbatim/domain/Inbound/Providers"
import type { Bytes } from "@verbatim/projections/Blobs"
import { Context, Duration, Effect, Layer, Option, Redacted, Schema, Stream } from "effect"
import { createHash } from "node:crypto"
import { ServerConfig } from "../ServerConfig.js"
import { MediaError } from "./MediaError.js"

/** What fetching needs to know of an attachment. */
export interface FileReference {
  readonly provider: Provider
  readonly kind: AttachmentKind
  readonly fileId: string
  /** WhatsApp's sha256 of the bytes (base64), checked after the download; Telegram's unique id otherwise. */
  readonly uniqueId: string | null
  readonly size: number | null
  readonly mimeType: string | null
}

const megabytes = (n: number) => n * 1024 * 1024

/** The most Verbatim stores of any one file: Telegram's download limit for bots. */
export const maxStoredBytes = megabytes(20)

/**
 * Each provider's own limits by kind, where it has them (WhatsApp's: Cloud API media reference);
 * nothing above `maxStoredBytes` is kept.
 */
const providerLimits: { readonly [P in ChatProvider]: Partial<Record<AttachmentKind, number>> } = {
  telegram: {},
  whatsapp: { voice: megabytes(16), audio: megabytes(16), image: megabytes(5), video: megabytes(16), sticker: megabytes(0.5) }
}

/** The most bytes taken for an attachment of this provider and kind. */
export const limitFor = (provider: Provider, kind: AttachmentKind): number =>
  Math.min(maxStoredBytes, (isChatProvider(provider) ? providerLimits[provider][kind] : undefined) ?? maxStoredBytes)

const mb = (bytes: number) => `${Math.round(bytes / megabytes(1) * 10) / 10} MB`

const fail = (permanent: boolean, reason: string) => new MediaError({ stage: "fetch", permanent, reason })

const tooLarge = (limit: number) => fail(true, `the file is larger than ${mb(limit)}, the most that can be fetched`)

const timeout = Duration.seconds(60)

/** A failed answer, classified: 404 and other 4xx cannot change by retrying (except 408 and 429); 5xx may. */
const statusFailure = (what: string, response: HttpClientResponse.HttpClientResponse, detail: string | null) => {
  const status = response.status
  const transient = status >= 500 || status === 408 || status === 429
  return fail(!transient, `${what} answered HTTP ${status}${detail === null ? "" : `: ${detail}`}`)
}

/** The body's bytes as they arrive, refused as soon as they pass `limit`. */
const collect = (response: HttpClientResponse.HttpClientResponse, limit: number, mimeType: string | null, what: string) =>
  Stream.runFoldEffect(
    response.stream,
    { chunks: [] as Array<Uint8Array>, size: 0 },
    (bytes, chunk) => {
      if (bytes.size + chunk.length > limit) return Effect.fail(tooLarge(limit))
      bytes.chunks.push(chunk)
      return Effect.succeed({ chunks: bytes.chunks, size: bytes.size + chunk.length })
    }
  ).pipe(
    Effect.catchTag("ResponseError", () => Effect.fail(fail(false, `the download from ${what} broke off`))),
    Effect.map((bytes): Bytes => ({ chunks: bytes.chunks, size: bytes.size, mimeType }))
  )

/** Run a request: transport failures and timeouts are transient; the URL (which may hold a token) stays out of the reason. */
const send = (client: HttpClient.HttpClient, request: HttpClientRequest.HttpClientRequest, what: string) =>
  client.execute(request).pipe(
    Effect.mapError(() => fail(false, `could not reach ${what}`)),
    Effect.timeoutFail({ duration: timeout, onTimeout: () => fail(false, `${what} did not answer within ${Duration.format(timeout)}`) })
  )

const TelegramFile = Schema.Struct({
  ok: Schema.Literal(true),
  result: Schema.Struct({ file_path: Schema.optional(Schema.String), file_size: Schema.optional(Schema.Number) })
})
const TelegramFailure = Schema.Struct({ description: Schema.optional(Schema.String) })

const WhatsAppMedia = Schema.Struct({
  url: Schema.String,
  mime_type: Schema.optional(Schema.String),
  sha256: Schema.optional(Schema.String),
  file_size: Schema.optional(Schema.Union(Schema.Number, Schema.NumberFromString))
})
const GraphFailure = Schema.Struct({ error: Schema.optional(Schema.Struct({ message: Schema.optional(Schema.String) })) })

const detailOf = <A extends object, I>(schema: Schema.Schema<A, I>, pick: (a: A) => string | undefined) =>
  (response: HttpClientResponse.HttpClientResponse) =>
    response.json.pipe(
      Effect.map((body) => Option.getOrUndefined(Option.flatMapNullable(Schema.decodeUnknownOption(schema)(body), pick)) ?? null),
      Effect.orElseSucceed(() => null)
    )

const telegramDetail = detailOf(TelegramFailure, (f) => f.description)
const graphDetail = detailOf(GraphFailure, (f) => f.error?.message)

/** Whether downloaded bytes match the sha256 WhatsApp gave (base64 or hex); true when it gave none it can be read as. */
export const matchesDigest = (chunks: ReadonlyArray<Uint8Array>, expected: string | null): boolean => {
  if (expected === null) return true
  const hash = createHash("sha256")
  for (const chunk of chunks) hash.update(chunk)
  const digest = hash.digest()
  if (/^[0-9a-f]{64}$/i.test(expected)) return digest.toString("hex") === expected.toLowerCase()
  if (/^[A-Za-z0-9+/]{43}=$/.test(expected)) return digest.toString("base64") === expected
  return true
}

/** The form a Graph API object id takes: letters, digits, `_` and `-`, one path segment that cannot name another. */
const graphId = /^[A-Za-z0-9_-]{1,128}$/

export class MediaSource extends Context.Tag("@verbatim/server/MediaSource")<MediaSource, {
  /** The attachment's bytes, or why not (`permanent` when no later try can succeed). */
  readonly fetch: (file: FileReference) => Effect.Effect<Bytes, MediaError>
}>() {
  static readonly make = Effect.gen(function*() {
    const settings = yield* ServerConfig
    // Telegram's file URLs hold the bot token, WhatsApp's a signed query: keep both out of spans.
    const client = (yield* HttpClient.HttpClient).pipe(HttpClient.withTracerDisabledWhen(() => true))

    const telegram = (file: FileReference, token: string) =>
      Effect.gen(function*() {
        const limit = limitFor("telegram", file.kind)
        if (file.size !== null && file.size > limit) return yield* tooLarge(limit)
        const what = "Telegram"
        const answer = yield* send(client, HttpClientRequest.post(`${settings.telegramApiBase}/bot${token}/getFile`).pipe(
          HttpClientRequest.bodyUnsafeJson({ file_id: file.fileId })
        ), what)
        if (answer.status !== 200) return yield* Effect.flatMap(telegramDetail(answer), (detail) => statusFailure(what, answer, detail))
        const found = yield* answer.json.pipe(
          Effect.flatMap(Schema.decodeUnknown(TelegramFile)),
          Effect.mapError(() => fail(false, "Telegram's getFile answer could not be read"))
        )
        const path = found.result.file_path
        if (path === undefined) return yield* fail(true, "Telegram has no downloadable path for the file")
        if (found.result.file_size !== undefined && found.result.file_size > limit) return yield* tooLarge(limit)
        const download = yield* send(client, HttpClientRequest.get(`${settings.telegramApiBase}/file/bot${token}/${path}`), what)
        if (download.status !== 200) return yield* statusFailure(what, download, null)
        return yield* collect(download, limit, file.mimeType ?? download.headers["content-type"] ?? null, what)
      })

    const whatsApp = (file: FileReference, token: string) =>
      Effect.gen(function*() {
        // The id goes into a path beside the access token: one that could leave its place (`..`, `/`, `?`) is never sent.
        if (!graphId.test(file.fileId)) return yield* fail(true, `"${file.fileId}" is not a WhatsApp media id, so it was not looked up`)
        const limit = limitFor("whatsapp", file.kind)
        const what = "WhatsApp"
        const locate = Effect.gen(function*() {
          const answer = yield* send(client, HttpClientRequest.get(`${settings.whatsAppApiBase}/${encodeURIComponent(file.fileId)}`).pipe(
            HttpClientRequest.bearerToken(token)
          ), what)
          if (answer.status === 404) return yield* fail(true, "WhatsApp no longer has the file (media ids expire after 7 days)")
          if (answer.status !== 200) return yield* Effect.flatMap(graphDetail(answer), (detail) => statusFailure(what, answer, detail))
          return yield* answer.json.pipe(
            Effect.flatMap(Schema.decodeUnknown(WhatsAppMedia)),
            Effect.mapError(() => fail(false, "WhatsApp's media answer could not be read"))
          )
        })
        const download = (url: string) => send(client, HttpClientRequest.get(url).pipe(HttpClientRequest.bearerToken(token)), what)
        let media = yield* locate
        if (media.file_size !== undefined && media.file_size > limit) return yield* tooLarge(limit)
        let answer = yield* download(media.url)
        // The URL lives minutes: one that expired between the two calls is asked for again, once.
        if (answer.status === 404 || answer.status === 401 || answer.status === 403) {
          media = yield* locate
          answer = yield* download(media.url)
        }
        if (answer.status !== 200) return yield* statusFailure(what, answer, null)
        const bytes = yield* collect(answer, limit, media.mime_type ?? file.mimeType, what)
        if (!matchesDigest(bytes.chunks, media.sha256 ?? file.uniqueId)) {
          return yield* fail(false, "the bytes WhatsApp sent do not match the sha256 it gave")
        }
        return bytes
      })

    const unset = (variable: string) => Effect.fail(fail(true, `${variable} is not set, so the file cannot be fetched`))

    /** Each chat provider's file API, with the token it needs. */
    const fetchers: { readonly [P in ChatProvider]: (file: FileReference) => Effect.Effect<Bytes, MediaError> } = {
      telegram: (file) =>
        Option.match(settings.telegramBotToken, { onNone: () => unset("TELEGRAM_BOT_TOKEN"), onSome: (token) => telegram(file, Redacted.value(token)) }),
      whatsapp: (file) =>
        Option.match(settings.whatsAppAccessToken, { onNone: () => unset("WHATSAPP_ACCESS_TOKEN"), onSome: (token) => whatsApp(file, Redacted.value(token)) })
    }

    return MediaSource.of({
      fetch: (file) =>
        (isChatProvider(file.provider) ? fetchers[file.provider](file) : Effect.fail(fail(true, "the web pages send no files"))).pipe(
            Effect.withSpan("MediaSource.fetch", { attributes: { provider: file.provider, kind: file.kind } })
          )
    })
  })

  /** Tokens and base URLs from `ServerConfig`. */
  static readonly layer = Layer.effect(MediaSource, MediaSource.make)
}
