/**
 * The store's services over any SQL client: the event store with inline projections and the
 * committer its appends share (leases write through it), the reads (capture's session lookups,
 * the jobs' queues, the notebook the pages show, the event log's pages), the reminders' and the
 * asks' read sides, the leases, the blobs, the kept replay reports, the runner's memory of its
 * folds, and the wake-ups of what waits for events (told of this instance's commits, and, over
 * `across`, of other instances').
 */
import type { MigrationError } from "@effect/sql/Migrator"
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Event } from "@verbatim/domain/Events"
import { Context, Effect, Layer, Schedule, type Scope, Stream } from "effect"
import * as AskBook from "./AskBook.js"
import * as Blobs from "./Blobs.js"
import { Committer } from "./Commit.js"
import * as EventLog from "./EventLog.js"
import { EventStore } from "./EventStore.js"
import { FoldCache } from "./FoldCache.js"
import * as Jobs from "./Jobs.js"
import { Leases } from "./Leases.js"
import * as Notebook from "./Notebook.js"
import { isTopic, type Topic, topicsOf, Wakeups } from "./Wakeups.js"
import * as Projector from "./Projections/Projector.js"
import * as ReminderBook from "./ReminderBook.js"
import { ReplayReports } from "./ReplayReports.js"
import * as SessionLookups from "./SessionLookups.js"
import * as SqlEventStore from "./SqlEventStore.js"
import type { Dialect } from "./internal/Dialect.js"

/** What every store layer provides. */
export type Services =
  | EventStore
  | Committer
  | FoldCache
  | Wakeups
  | SessionLookups.SessionLookups
  | Jobs.Jobs
  | Notebook.Notebook
  | EventLog.EventLog
  | ReminderBook.ReminderBook
  | AskBook.AskBook
  | Leases | Blobs.Blobs | ReplayReports | SqlClient

/** How instances sharing one database tell each other what they committed (PostgreSQL's `NOTIFY`). */
export interface Across {
  readonly announce: (topics: ReadonlyArray<Topic>) => Effect.Effect<void, SqlError>
  readonly hear: Stream.Stream<ReadonlyArray<string>, SqlError>
}

/** Wake this instance's waiters, and announce the topics to the others; an announcement that fails is only logged. */
const committedWith = (wakeups: Wakeups["Type"], across: Across | undefined) => (events: ReadonlyArray<Event>) => {
  const topics = topicsOf(events)
  wakeups.heard(topics)
  return across === undefined || topics.length === 0
    ? Effect.void
    : across.announce(topics).pipe(Effect.catchAll((error) => Effect.logWarning("announcing a commit to other instances failed", error)))
}

/** Hear other instances' commits for as long as the store lives; a lost connection is listened on again. */
const hearing = (wakeups: Wakeups["Type"], across: Across) =>
  across.hear.pipe(
    Stream.runForEach((names) => Effect.sync(() => wakeups.heard(names.filter(isTopic)))),
    Effect.tapErrorCause((cause) => Effect.logWarning("listening for other instances' commits failed; listening again", cause)),
    Effect.retry({ schedule: Schedule.spaced("1 second") }),
    Effect.ignore
  )

/** How a store's commits reach other instances and the disk, where the client alone does not see to it. */
export interface StoreOnOptions {
  readonly across?: Across | undefined
  /** The flush to run after each group commit, before its callers hear of it (see `SqlEventStore.Options`), made in the store's scope. */
  readonly durable?: Effect.Effect<Effect.Effect<void>, never, Scope.Scope> | undefined
}

/** The store over a client, once `prepare` has set the connection up and brought (or found) the schema current. */
export const storeOn = (
  dialect: Dialect,
  prepare: Effect.Effect<void, SqlError | MigrationError, SqlClient | Scope.Scope>,
  { across, durable }: StoreOnOptions = {}
) =>
  Layer.provideMerge(
    Layer.mergeAll(
      SessionLookups.layer,
      Jobs.layer,
      Notebook.layer,
      EventLog.layer,
      ReminderBook.layer,
      AskBook.layer,
      Leases.layer,
      Blobs.layer,
      ReplayReports.layer,
      FoldCache.layer
    ),
    Layer.scopedContext(
      Effect.gen(function*() {
        yield* prepare
        const wakeups = yield* Wakeups
        if (across !== undefined) yield* Effect.forkScoped(hearing(wakeups, across))
        const { committer, store } = yield* SqlEventStore.make({
          dialect,
          project: Projector.apply,
          committed: committedWith(wakeups, across),
          durable: durable === undefined ? undefined : yield* durable
        })
        return Context.make(EventStore, store).pipe(Context.add(Committer, committer))
      })
    ).pipe(Layer.provideMerge(Wakeups.layer))
  )

