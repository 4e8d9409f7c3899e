/**
 * The services the CLI's heavier commands run on: for the commands that plan (retry, replay) the
 * planner as `serve` configures it (`Planner.ts`), and for `retranscribe` the media worker with
 * its readers, each over the configured store. Loaded only with those commands (`Cli.ts`).
 */
import * as Store from "@verbatim/projections/Store"
import { Layer } from "effect"
import { ClientsLive, ReadersLive } from "../App.js"
import { IdGenerator } from "../IdGenerator.js"
import { MediaWorker } from "../Media/Worker.js"
import * as Planner from "../Planning/Planner.js"
import { PlanningHold } from "../Planning/PlanningHold.js"
import { ServerConfig } from "../ServerConfig.js"
import { TimeZones } from "../TimeZones.js"

/** Everything `planSession` needs, `model` overriding `VERBATIM_MODEL`; no model configured is a `NoModelError`. */
export const plannerLayer = Planner.layerConfig

/** The same on Message Batches (`replay --batch`), its batches kept in a state file. */
export const batchPlannerLayer = Planner.batchLayerConfig

/** The plan job over the configured store and planner, with its ids; without a model it answers `no-model`. */
export const PlanJobLayer = Planner.planJobLayerConfig.pipe(
  Layer.provideMerge(PlanningHold.layer),
  Layer.provideMerge(TimeZones.layerConfig),
  Layer.provideMerge(IdGenerator.layer),
  Layer.provideMerge(Store.layerConfig)
)

/** The media worker over the configured store, the providers' file APIs and the readers as configured. */
export const MediaWorkerLayer = MediaWorker.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(ClientsLive, ReadersLive)),
  Layer.provideMerge(ServerConfig.layer),
  Layer.provideMerge(Store.layerConfig)
)
