/**
 * The services the server and the CLI's jobs share: the configured store, settings, ids, reply
 * senders, the plan job and the answering of questions, what triggers planning, whether planning is held, the outbox, and the media
 * worker with its file fetching, transcriber and image reader.
 */
import { NodeHttpClient } from "@effect/platform-node"
import * as Store from "@verbatim/projections/Store"
import { Layer } from "effect"
import { IdGenerator } from "./IdGenerator.js"
import * as Documents from "./Media/Documents.js"
import * as ImageReader from "./Media/ImageReader.js"
import { MediaSource } from "./Media/MediaSource.js"
import * as Transcriber from "./Media/Transcriber.js"
import { MediaWorker } from "./Media/Worker.js"
import { Outbox } from "./Providers/Outbox.js"
import type { Asking } from "./Ask/Asking.js"
import { askingLayerConfig } from "./Ask/AskingLayer.js"
import type { PlanJob } from "./Planning/PlanJob.js"
import { PlanningHold } from "./Planning/PlanningHold.js"
import * as Planner from "./Planning/Planner.js"
import { PlanTrigger } from "./Planning/PlanTrigger.js"
import { TelegramClient, WhatsAppClient } from "./Providers/ProviderClients.js"
import { ServerConfig } from "./ServerConfig.js"
import { TimeZones } from "./TimeZones.js"
import { ReminderTemplate } from "./Reminders/Template.js"

/** The event store chosen by configuration (SQLite under ./data unless `VERBATIM_DATABASE_URL` says PostgreSQL), as the server runs it. */
export const StoreLive = Store.layerServing

/** Reply senders and the attachment fetcher for both providers over Node's HTTP client. */
export const ClientsLive = Layer.mergeAll(TelegramClient.layer, WhatsAppClient.layer, MediaSource.layer).pipe(
  Layer.provide(NodeHttpClient.layerUndici)
)

/** The readers `VERBATIM_TRANSCRIBE_*`, `VERBATIM_VISION` and `VERBATIM_DOCUMENT_MAX_CHARS` configure (each one that is not says why). */
export const ReadersLive = Layer.mergeAll(Transcriber.layerConfig, ImageReader.layerConfig, Documents.layerConfig)

/** The shared services around a given plan job and answering of questions. */
export const layer = <E, R>(jobs: Layer.Layer<PlanJob | Asking, E, R>) =>
  Layer.mergeAll(PlanTrigger.layer, Outbox.layer, MediaWorker.layer).pipe(
    Layer.provideMerge(jobs),
    Layer.provideMerge(ReadersLive),
    Layer.provideMerge(PlanningHold.layer),
    Layer.provideMerge(ClientsLive),
    Layer.provideMerge(IdGenerator.layer),
    Layer.provideMerge(TimeZones.layerConfig),
    Layer.provideMerge(ReminderTemplate.layerConfig),
    Layer.provideMerge(ServerConfig.layer),
    Layer.provideMerge(StoreLive)
  )

/** The shared services with the plan job and the answering of questions as configured. */
export const AppLive = layer(Layer.merge(Planner.planJobLayerConfig, askingLayerConfig))
