/**
 * The composition of the running service: store, settings, provider clients, planner, jobs and
 * the HTTP server, with the scheduler and the outbox as background fibers. `serve` runs it.
 */
import { HttpServer } from "@effect/platform"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import * as AnthropicLanguageModel from "@verbatim/planner/AnthropicLanguageModel"
import { LanguageModel } from "@verbatim/planner/LanguageModel"
import { PromptRegistry } from "@verbatim/planner/PromptRegistry"
import { Tokenizer } from "@verbatim/planner/Tokenizer"
import * as Store from "@verbatim/projections/Store"
import { Config, Console, Effect, Layer, Logger, Option, Redacted } from "effect"
import { createServer } from "node:http"
import { resolve } from "node:path"
import { ApiToken } from "./ApiToken.js"
import { DirectReplies } from "./Http/DirectReplies.js"
import * as Routes from "./Http/Routes.js"
import { IdGenerator } from "./IdGenerator.js"
import * as Metrics from "./Metrics.js"
import * as Outbox from "./Outbox.js"
import { PlanJob } from "./PlanJob.js"
import { PlanningConfig } from "./Planning.js"
import { PlanTrigger } from "./PlanTrigger.js"
import { TelegramClient, WhatsAppClient } from "./ProviderClients.js"
import * as Scheduler from "./Scheduler.js"
import { notConfigured, ServerConfig } from "./ServerConfig.js"

/** Said at start-up when no model key is set. */
export const noModelNotice = "no model key: messages are captured and held; planning resumes once ANTHROPIC_API_KEY is set"

const modelKey = Config.option(Config.redacted("ANTHROPIC_API_KEY"))

/** The event store chosen by configuration (SQLite under ./data unless `VERBATIM_DATABASE_URL` says PostgreSQL). */
export const StoreLive = Store.layerConfig

/** The Anthropic model, counting the tokens of every call. */
const ModelLive = Layer.effect(
  LanguageModel,
  Effect.map(LanguageModel, (model) =>
    LanguageModel.of({ plan: (request) => Effect.tap(model.plan(request), (result) => Metrics.modelTokens(result.usage)) }))
).pipe(Layer.provide(AnthropicLanguageModel.layerConfig))

const PlannerLive = Layer.mergeAll(ModelLive, PromptRegistry.layerConfig, Tokenizer.layer, PlanningConfig.layerConfig)

/** The plan job, each run counted by outcome; without a model key, sessions wait unplanned. */
export const PlanJobLive = Layer.effect(
  PlanJob,
  Effect.map(PlanJob, (job) => PlanJob.of({ run: (sessionId, options) => Effect.tap(job.run(sessionId, options), Metrics.plan) }))
).pipe(
  Layer.provide(Layer.unwrapEffect(Effect.map(modelKey, Option.match({
    onNone: () => PlanJob.layerNoModel,
    onSome: () => PlanJob.layer.pipe(Layer.provide(PlannerLive))
  }))))
)

/** Reply senders for both providers over Node's HTTP client. */
export const ClientsLive = Layer.mergeAll(TelegramClient.layer, WhatsAppClient.layer).pipe(Layer.provide(NodeHttpClient.layerUndici))

/**
 * Store, settings, ids, provider clients, plan job and outbox: what the server and the CLI's
 * jobs share.
 */
export const AppLive = Layer.mergeAll(PlanTrigger.layer, Outbox.Outbox.layer).pipe(
  Layer.provideMerge(PlanJobLive),
  Layer.provideMerge(ClientsLive),
  Layer.provideMerge(IdGenerator.layer),
  Layer.provideMerge(ServerConfig.layer),
  Layer.provideMerge(StoreLive)
)

/**
 * For the scope's life: idle sessions closed every second, every closed session planned as its
 * `SessionClosed` reaches the log's reader, and the outbox drained every two seconds.
 */
export const BackgroundLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const settings = yield* ServerConfig
    yield* Effect.forkScoped(Scheduler.run(settings.sessionIdle, "1 second"))
    yield* Effect.forkScoped(Effect.flatMap(PlanTrigger, (trigger) => trigger.follow("500 millis")))
    yield* Effect.forkScoped(Outbox.runEvery("2 seconds"))
  })
)

/** Node's HTTP server on `HOST`:`PORT`. */
const ListenLive = Layer.unwrapEffect(
  Effect.map(ServerConfig, (settings) => NodeHttpServer.layer(createServer, { port: settings.port, host: settings.host }))
)

/** The start-up report: where it listens, where the data lives, the generated token, what is not configured. */
const Announce = Layer.effectDiscard(
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const settings = yield* ServerConfig
    const token = yield* ApiToken
    const store = yield* Store.config
    const key = yield* modelKey
    const address = server.address._tag === "TcpAddress" ? `http://${server.address.hostname}:${server.address.port}` : server.address.path
    const data = Option.isSome(store.url) ? "PostgreSQL (VERBATIM_DATABASE_URL)" : resolve(store.dataDir, "verbatim.db")
    const lines = [
      `verbatim listening on ${address}`,
      `data: ${data}`,
      ...(token.generated ? [`API token (generated, kept in ${token.path}): ${Redacted.value(token.token)}`] : []),
      ...notConfigured({ ...settings, apiToken: Option.some(token.token) }),
      ...(Option.isNone(key) ? [noModelNotice] : [])
    ]
    yield* Effect.forEach(lines, (line) => Console.log(line), { discard: true })
  })
)

/** Everything `serve` runs. */
export const ServerLive = Announce.pipe(
  Layer.provideMerge(Routes.layer),
  Layer.provideMerge(BackgroundLive),
  Layer.provideMerge(ListenLive),
  Layer.provideMerge(ApiToken.layer),
  Layer.provideMerge(DirectReplies.layer),
  Layer.provideMerge(AppLive)
)

/** Run the server until interrupted, logging as JSON. */
export const serve = Layer.launch(ServerLive).pipe(Effect.provide(Logger.json))
