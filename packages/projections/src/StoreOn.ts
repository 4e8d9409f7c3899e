/**
 * The store's services over any SQL client: the event store with inline projections, the read
 * model, the leases, the blobs, the kept replay reports, and the runner's memory of its folds.
 */
import type { MigrationError } from "@effect/sql/Migrator"
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer, type Scope } from "effect"
import * as Blobs from "./Blobs.js"
import { EventStore } from "./EventStore.js"
import { FoldCache } from "./FoldCache.js"
import { Leases } from "./Leases.js"
import { Wakeups } from "./Wakeups.js"
import * as Projector from "./Projections/Projector.js"
import * as ReadModel from "./ReadModel.js"
import { ReplayReports } from "./ReplayReports.js"
import * as SqlEventStore from "./SqlEventStore.js"
import type { Dialect } from "./internal/Dialect.js"

/** What every store layer provides. */
export type Services = EventStore | FoldCache | Wakeups | ReadModel.ReadModel | Leases | Blobs.Blobs | ReplayReports | SqlClient

/** The store over a client, once `prepare` has set the connection up and brought (or found) the schema current. */
export const storeOn = (dialect: Dialect, prepare: Effect.Effect<void, SqlError | MigrationError, SqlClient | Scope.Scope>) =>
  Layer.provideMerge(
    Layer.mergeAll(ReadModel.layer, Leases.layer, Blobs.layer, ReplayReports.layer, FoldCache.layer),
    Layer.scoped(
      EventStore,
      Effect.gen(function*() {
        yield* prepare
        const wakeups = yield* Wakeups
        return yield* SqlEventStore.make({ dialect, project: Projector.apply, committed: wakeups.appended })
      })
    ).pipe(Layer.provideMerge(Wakeups.layer))
  )

