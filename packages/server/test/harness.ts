/**
 * The whole server in-process on 127.0.0.1:0: a temp SQLite store, the scripted model, fake
 * Telegram and WhatsApp APIs (their file APIs too), a fake transcription server and a fake vision
 * model, fixed secrets. Lives in the server's tests because the testkit cannot depend on the
 * server. Jobs are driven by the test (`closeIdle`, `drain`), not by background fibers, so every
 * step is deterministic under `TestClock`.
 */
import { FetchHttpClient, HttpServer } from "@effect/platform"
import * as AnthropicLanguageModel from "@verbatim/planner/AnthropicLanguageModel"
import { LanguageModel } from "@verbatim/planner/LanguageModel"
import { PromptRegistry } from "@verbatim/planner/PromptRegistry"
import { Tokenizer } from "@verbatim/planner/Tokenizer"
import { EventStore, start } from "@verbatim/projections/EventStore"
import * as Database from "@verbatim/testkit/Database"
import { FakeAnthropic, FakeReply } from "@verbatim/testkit/FakeAnthropic"
import { FakeTranscriber, transcript } from "@verbatim/testkit/FakeTranscriber"
import { spokenOgg, textPng } from "@verbatim/testkit/RealMedia"
import { FakeTelegram, fakeBot } from "@verbatim/testkit/FakeTelegram"
import { FakeWhatsApp } from "@verbatim/testkit/FakeWhatsApp"
import type { FakeFiles } from "@verbatim/testkit/FakeTelegram"
import { ScriptedLanguageModel, type ScriptStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { ConfigProvider, Context, Duration, Effect, Layer, Option, Redacted, TestClock } from "effect"
import { readFileSync } from "node:fs"
import { ApiToken } from "../src/ApiToken.js"
import { BotIdentity } from "../src/BotIdentity.js"
import { DirectReplies } from "../src/Providers/DirectReplies.js"
import * as Routes from "../src/Http/Routes.js"
import { IdGenerator } from "../src/IdGenerator.js"
import * as Documents from "../src/Media/Documents.js"
import * as ImageReader from "../src/Media/ImageReader.js"
import { MediaSource } from "../src/Media/MediaSource.js"
import * as Transcriber from "../src/Media/Transcriber.js"
import { MediaWorker } from "../src/Media/Worker.js"
import { Outbox } from "../src/Providers/Outbox.js"
import { Pacer } from "../src/Providers/Pacer.js"
import { PlanJob } from "../src/Planning/PlanJob.js"
import { Asking } from "../src/Ask/Asking.js"
import { AskPrompts } from "@verbatim/planner/Ask"
import { PlanningConfig } from "@verbatim/planner/Planning"
import * as Planner from "../src/Planning/Planner.js"
import { PlanningHold } from "../src/Planning/PlanningHold.js"
import { PlanTrigger } from "../src/Planning/PlanTrigger.js"
import { TelegramClient, WhatsAppClient } from "../src/Providers/ProviderClients.js"
import * as Scheduler from "../src/Scheduler.js"
import * as Server from "../src/Server.js"
import { parseAllowedSenders, ServerConfig, type ServerSettings } from "../src/ServerConfig.js"
import { WebLinks } from "../src/WebLinks.js"
import { whatsAppSignature } from "../src/Providers/WebhookAuth.js"
import { TimeZones } from "../src/TimeZones.js"
import { ReminderTemplate } from "../src/Reminders/Template.js"
import { ApiClient, noteOf } from "./apiClient.js"

export const telegramSecret = "tg-secret-for-tests"
export const whatsAppAppSecret = "wa-app-secret-for-tests"
export const whatsAppVerifyToken = "wa-verify-for-tests"
export const apiToken = "api-token-for-tests"
export const idle = Duration.seconds(30)

/** Everyone whose fixture bodies the tests post (and the senders the tests make up). */
export const allowed = [
  "telegram:100000001",
  "telegram:100000002",
  "telegram:100000004",
  "telegram:100000005",
  "telegram:1111111",
  "telegram:12345678",
  "whatsapp:15550001111",
  "whatsapp:972987654321",
  "whatsapp:16505551234",
  "whatsapp:PHONE_NUMBER"
].join(",")

/** A webhook fixture body, as the exact text on disk. */
export const fixture = (path: string): string =>
  readFileSync(new URL(`../../domain/test/fixtures/webhooks/${path}`, import.meta.url), "utf8")

/** A response as the test sees it. */
export interface Reply {
  readonly status: number
  readonly body: string
}

export class Harness extends Context.Tag("@verbatim/server/test/Harness")<Harness, {
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string
  readonly request: (
    method: string,
    path: string,
    options?: { readonly body?: string | Uint8Array; readonly headers?: Record<string, string> }
  ) => Effect.Effect<Reply>
}>() {}

/** POST a raw body to a path, as bytes. */
export const post = (path: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
  Effect.flatMap(Harness, (h) => h.request("POST", path, { body, headers: { "content-type": "application/json", ...headers } }))

/** A Telegram update of message `messageId` from `sender` in their private chat, with `content` (text, voice, photo …). */
export const senderUpdate = (sender: number, messageId: number, content: Record<string, unknown>) =>
  JSON.stringify({
    update_id: 900000 + messageId,
    message: {
      message_id: messageId,
      from: { id: sender, is_bot: false, first_name: "Alice" },
      chat: { id: sender, type: "private", first_name: "Alice" },
      date: 1767225600,
      ...content
    }
  })

/** A Telegram update from Alice (100000001). */
export const aliceUpdate = (messageId: number, content: Record<string, unknown>) => senderUpdate(100000001, messageId, content)

/** POST a Telegram update with the right secret. */
export const telegram = (body: string) => post("/webhooks/telegram", body, { "x-telegram-bot-api-secret-token": telegramSecret })

/** POST a WhatsApp body signed over its exact bytes. */
export const whatsApp = (body: string) => {
  const bytes = new TextEncoder().encode(body)
  return post("/webhooks/whatsapp", bytes, { "x-hub-signature-256": whatsAppSignature(whatsAppAppSecret, bytes) })
}

/** GET an API path with the bearer token; the body parsed as JSON. */
export const api = (path: string, init: { readonly method?: string; readonly body?: unknown } = {}) =>
  Effect.flatMap(Harness, (h) =>
    Effect.map(
      h.request(init.method ?? "GET", path, {
        headers: { authorization: `Bearer ${apiToken}`, "content-type": "application/json" },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
      }),
      (reply) => ({ status: reply.status, json: JSON.parse(reply.body) as unknown })
    ))

/** Fetch and read every attachment owed work, once. */
export const readMedia = Effect.flatMap(MediaWorker, (worker) => worker.drain)

/**
 * Let the idle time pass, then close idle sessions, fetch and read their attachments, and plan
 * them (the plan trigger caught up with the log).
 */
export const closeIdle = Effect.zipRight(
  TestClock.adjust(Duration.sum(idle, Duration.seconds(1))),
  Effect.all({
    closed: Scheduler.closeIdle(idle),
    planned: Effect.zipRight(readMedia, Effect.flatMap(PlanTrigger, (trigger) => trigger.catchUp))
  })
)

/** The fake vision model the image reader talks to (its own Messages API, apart from the planner's). */
export class FakeVision extends Context.Tag("@verbatim/server/test/FakeVision")<FakeVision, FakeAnthropic["Type"]>() {}

/** The provider's file store, where a test puts the bytes behind a file id. */
export const filesOf = (provider: "telegram" | "whatsapp"): Effect.Effect<FakeFiles, never, FakeTelegram | FakeWhatsApp> =>
  provider === "telegram" ? Effect.map(FakeTelegram, (fake) => fake.files) : Effect.map(FakeWhatsApp, (fake) => fake.files)

/** The provider holds `sentence` spoken (real OGG/Opus) under `fileId`, and the transcriber hears it. */
export const voiceSaying = (provider: "telegram" | "whatsapp", fileId: string, sentence: string) =>
  Effect.gen(function*() {
    yield* (yield* filesOf(provider)).add(fileId, yield* spokenOgg(sentence), { mimeType: "audio/ogg" })
    yield* (yield* FakeTranscriber).answerNext(transcript(sentence))
  })

/** The provider holds a real PNG of `text` under `fileId`. */
export const imageFile = (provider: "telegram" | "whatsapp", fileId: string, text: string) =>
  Effect.flatMap(Effect.zip(filesOf(provider), textPng(text, 900, 300)), ([files, png]) => files.add(fileId, png, { mimeType: "image/png" }))

/** The provider holds a real PNG of `text` under `fileId`, and the vision model reads it. */
export const imageShowing = (provider: "telegram" | "whatsapp", fileId: string, text: string) =>
  Effect.zipRight(imageFile(provider, fileId, text), Effect.flatMap(FakeVision, (vision) => vision.script(FakeReply.toolUse({ text, description: "" }))))

/** The model names the fake readers answer as. */
export const transcribeModel = "whisper-1"
export const visionModel = "claude-vision-test"

const fakeReaders = Layer.unwrapEffect(Effect.gen(function*() {
  const transcriber = yield* FakeTranscriber
  const vision = yield* FakeVision
  return Layer.mergeAll(
    Transcriber.layer({
      baseUrl: transcriber.baseUrl,
      apiKey: Option.some(Redacted.make("sk-transcribe")),
      model: transcribeModel,
      language: Option.none(),
      timeout: Duration.seconds(5),
      maxUpload: Transcriber.defaultMaxUpload
    }),
    ImageReader.layer({ apiKey: Redacted.make("sk-vision"), model: visionModel, baseUrl: Option.some(vision.baseUrl), timeout: Duration.seconds(5) })
  )
}))

/** The readers over the fake servers, or none configured (`serve` without VERBATIM_TRANSCRIBE_URL or a key). */
const readersOf = (readers: "fakes" | "none") =>
  (readers === "none"
    ? Layer.mergeAll(Layer.succeed(Transcriber.Transcriber, Transcriber.none), Layer.succeed(ImageReader.ImageReader, ImageReader.none))
    : fakeReaders).pipe(
      Layer.merge(Documents.layer({ maxChars: 100_000 })),
      Layer.provideMerge(Layer.mergeAll(FakeTranscriber.layer, Layer.scoped(FakeVision, FakeAnthropic.make)))
    )

/** Send every queued reply once. */
export const drain = Effect.flatMap(Outbox, (outbox) => outbox.drain)

/** Every event in the log, in order (types and streams only: enough to see that nothing was appended). */
export const eventLog = Effect.flatMap(EventStore, (store) =>
  Effect.map(store.readPage(start, 10_000), (events) => events.map((e) => `${e.stream}#${e.version} ${e.event._tag}`)))

/** The text of every captured message, in log order. */
export const capturedTexts = Effect.flatMap(EventStore, (store) =>
  Effect.map(store.readPage(start, 10_000), (events) => events.flatMap((e) => e.event._tag === "MessageReceived" ? [e.event.message.text] : [])))

/** The planning settings, with one model attempt and planning's wait for media text of `mediaWait` seconds. */
const planningFor = (mediaWait: number) =>
  PlanningConfig.layerConfig.pipe(
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(
      new Map([["VERBATIM_MODEL_MAX_ATTEMPTS", "1"], ["VERBATIM_TRANSCRIBE_WAIT", String(mediaWait)]])
    )))
  )

const settingsLayer = (overrides: Partial<ServerSettings>) => Layer.unwrapEffect(Effect.gen(function*() {
  const tg = yield* FakeTelegram
  const wa = yield* FakeWhatsApp
  const senders = parseAllowedSenders(allowed)
  if (senders._tag === "Left") return yield* Effect.dieMessage(senders.left)
  return ServerConfig.layerTest({
    telegramWebhookSecret: Option.some(Redacted.make(telegramSecret)),
    whatsAppVerifyToken: Option.some(Redacted.make(whatsAppVerifyToken)),
    whatsAppAppSecret: Option.some(Redacted.make(whatsAppAppSecret)),
    allowedSenders: senders.right,
    maxBodyBytes: 64 * 1024,
    telegramBotToken: Option.some(Redacted.make(tg.token)),
    telegramApiBase: tg.baseUrl,
    whatsAppApiBase: wa.baseUrl,
    whatsAppAccessToken: Option.some(Redacted.make(wa.accessToken)),
    whatsAppPhoneNumberId: Option.some(wa.phoneNumberId),
    ...overrides
  })
}))

const harness = Layer.effect(
  Harness,
  Effect.map(HttpServer.HttpServer, (server) => {
    const baseUrl = server.address._tag === "TcpAddress" ? `http://127.0.0.1:${server.address.port}` : ""
    return Harness.of({
      baseUrl,
      request: (method, path, options = {}) =>
        Effect.promise(async () => {
          const response = await fetch(`${baseUrl}${path}`, {
            method,
            ...(options.headers === undefined ? {} : { headers: options.headers }),
            ...(options.body === undefined ? {} : { body: options.body })
          })
          return { status: response.status, body: await response.text() }
        })
    })
  })
)

/** Sign-in links to the server itself, wherever it listens, unless the test names another public address. */
const webLinks = (publicUrl: string | undefined) =>
  Layer.effect(
    WebLinks,
    Effect.map(HttpServer.HttpServer, (server) =>
      WebLinks.of({
        publicUrl: Option.some(publicUrl ?? (server.address._tag === "TcpAddress" ? `http://127.0.0.1:${server.address.port}` : ""))
      }))
  )

/** What a test may change about the store the server uses (a fault on some appends, say). */
export interface LayerOptions {
  readonly eventStore?: (store: EventStore["Type"]) => EventStore["Type"]
  /** Every user's time zone, whatever they set; unless given, the zone each set with `/tz`, else UTC. */
  readonly zone?: string
  /** Settings other than the harness's (a larger body limit, short timeouts). */
  readonly settings?: Partial<ServerSettings>
  /** No model configured: the plan job answers `no-model`, as `serve` does without a key. */
  readonly noModel?: boolean
  /** Seconds planning waits for the text of a closed session's media (`VERBATIM_TRANSCRIBE_WAIT`); 0 unless given. */
  readonly mediaWait?: number
  /** `none`: no transcription server and no vision configured. */
  readonly readers?: "fakes" | "none"
  /** The address people reach the server at (`VERBATIM_PUBLIC_URL`); the loopback address it listens on unless given. */
  readonly publicUrl?: string
  /** Replies paced to the providers' rate limits, as `serve` sends them; unpaced unless given (tests drive the outbox under a test clock). */
  readonly paced?: boolean
  /** The WhatsApp template reminders go out as outside its 24-hour window; none unless given. */
  readonly reminderTemplate?: { readonly name: string; readonly language: string }
}

/**
 * The server and everything behind it, with the model answering `steps` in order. The body
 * limit is 64 KiB so oversized bodies stay cheap.
 */
export const layer = (steps: ReadonlyArray<ScriptStep>, options: LayerOptions = {}) => layerOver(ScriptedLanguageModel.layer(steps), options)

/** The server and everything behind it over the given model (the real SDK against `FakeAnthropic`, say). */
export const layerOver = <M, E, R>(model: Layer.Layer<M, E, R>, options: LayerOptions = {}) =>
  ApiClient.layer(Effect.map(Harness, (h) => h.baseUrl), apiToken).pipe(
    Layer.provideMerge(harness),
    Layer.provideMerge(Routes.layer),
    Layer.provideMerge(webLinks(options.publicUrl)),
    Layer.provideMerge(PlanTrigger.layer),
    Layer.provideMerge(Server.listenLoopback),
    Layer.provideMerge(Layer.mergeAll(
      options.noModel === true ? PlanJob.layerNoModel : PlanJob.layer,
      options.noModel === true ? Asking.layerNoModel : Asking.layer,
      Outbox.layerWith(options.paced === true ? Pacer.live : Pacer.unpaced),
      MediaWorker.layer,
      DirectReplies.layer,
      ApiToken.layerTest(apiToken),
      BotIdentity.layerTest(fakeBot.username)
    )),
    Layer.provideMerge(readersOf(options.readers ?? "fakes")),
    // Every call metered as `serve` meters it, so the tests see the model's metrics.
    Layer.provideMerge(Layer.effect(LanguageModel, Effect.map(LanguageModel, Planner.meter))),
    Layer.provideMerge(Layer.mergeAll(model, PromptRegistry.layerConfig, AskPrompts.layerConfig, Tokenizer.layer, planningFor(options.mediaWait ?? 0), PlanningHold.layer, options.zone === undefined ? TimeZones.layerConfig : TimeZones.layerZone(options.zone), ReminderTemplate.layer(options.reminderTemplate ?? null))),
    Layer.provideMerge(Layer.mergeAll(TelegramClient.layer, WhatsAppClient.layer, MediaSource.layer).pipe(Layer.provide(FetchHttpClient.layer))),
    Layer.provideMerge(IdGenerator.layerTest),
    Layer.provideMerge(settingsLayer(options.settings ?? {})),
    Layer.provideMerge(Layer.mergeAll(FakeTelegram.layer, FakeWhatsApp.layer)),
    Layer.provideMerge(Layer.effect(EventStore, Effect.map(EventStore, options.eventStore ?? ((store) => store)))),
    Layer.provideMerge(Database.sqlite())
  )

/** Telegram calls the fake received: method and body. */
export const telegramCalls = Effect.flatMap(FakeTelegram, (fake) =>
  Effect.map(fake.calls, (calls) => calls.map((c) => ({ method: c.method, body: c.body }))))

/** WhatsApp messages the fake received (bodies only). */
export const whatsAppCalls = Effect.flatMap(FakeWhatsApp, (fake) => Effect.map(fake.calls, (calls) => calls.map((c) => c.body)))

/** The body of a note, through the API. */
export const noteBody = (noteId: string) => Effect.map(noteOf(noteId), (note) => note.body)

/** Wait for the direct sends (stranger refusals, button acknowledgements) started so far. */
export const settled = Effect.flatMap(DirectReplies, (replies) => replies.settled)

/** The real Anthropic layer with a revoked key, on a fresh fake Messages API. */
/** The real SDK against the fake Messages API, with this key. */
export const fakeAnthropicModel = (apiKey: string) =>
  Layer.unwrapEffect(
    Effect.map(FakeAnthropic, (fake) =>
      AnthropicLanguageModel.layer({
        apiKey: Redacted.make(apiKey),
        model: "claude-test",
        baseUrl: Option.some(fake.baseUrl),
        timeout: Duration.seconds(5)
      }))
  ).pipe(Layer.provideMerge(FakeAnthropic.layer))

export const revokedKeyModel = fakeAnthropicModel("sk-revoked")
