/**
 * The services the server and the CLI's jobs share: the configured store, settings, ids, reply
 * senders, the plan job, what triggers it, whether planning is held, and the outbox.
 */
import { NodeHttpClient } from "@effect/platform-node"
import * as Store from "@verbatim/projections/Store"
import { Layer } from "effect"
import { IdGenerator } from "./IdGenerator.js"
import { Outbox } from "./Outbox.js"
import type { PlanJob } from "./PlanJob.js"
import { PlanningHold } from "./PlanningHold.js"
import * as Planner from "./Planner.js"
import { PlanTrigger } from "./PlanTrigger.js"
import { TelegramClient, WhatsAppClient } from "./ProviderClients.js"
import { ServerConfig } from "./ServerConfig.js"

/** The event store chosen by configuration (SQLite under ./data unless `VERBATIM_DATABASE_URL` says PostgreSQL). */
export const StoreLive = Store.layerConfig

/** Reply senders for both providers over Node's HTTP client. */
export const ClientsLive = Layer.mergeAll(TelegramClient.layer, WhatsAppClient.layer).pipe(Layer.provide(NodeHttpClient.layerUndici))

/** The shared services around a given plan job. */
export const layer = <E, R>(planJob: Layer.Layer<PlanJob, E, R>) =>
  Layer.mergeAll(PlanTrigger.layer, Outbox.layer).pipe(
    Layer.provideMerge(planJob),
    Layer.provideMerge(PlanningHold.layer),
    Layer.provideMerge(ClientsLive),
    Layer.provideMerge(IdGenerator.layer),
    Layer.provideMerge(ServerConfig.layer),
    Layer.provideMerge(StoreLive)
  )

/** The shared services with the plan job as configured (`Planner.planJobLayerConfig`). */
export const AppLive = layer(Planner.planJobLayerConfig)
