/** The EventStore on @effect/sql: appends through group commit, reads paged, inline projections. */
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Event } from "@verbatim/domain/Events"
import { Chunk, Clock, Effect, Exit, Option, Schedule, Stream } from "effect"
import type { Scope } from "effect"
import type {
  AppendOptions,
  BatchAppend,
  Checkpoint,
  ExpectedVersion,
  IdempotencyKey,
  ReadOptions,
  RecordedEvent,
  StoreError,
  SubscribeOptions
} from "./EventStore.js"
import { checkpointOf, EventStore, isAfter } from "./EventStore.js"
import type { AppendRequest } from "./Append.js"
import { type CommitOutcome, type CommitRequest, commitBatch, Committer } from "./Commit.js"
import type { Projected } from "./Projections/Projection.js"
import type { Dialect, EventRow } from "./internal/Dialect.js"
import * as Flusher from "./Flusher.js"
import * as GroupCommit from "./GroupCommit.js"
import { sqlError, toRecordedAll } from "./internal/Rows.js"

/** Applies freshly appended events, in their stored form, to read models inside the append's transaction. */
export type InlineProjection = (events: ReadonlyArray<Projected>) => Effect.Effect<void, StoreError, SqlClient>

export interface Options {
  readonly dialect: Dialect
  readonly project: InlineProjection
  /** Most appends one transaction may carry. */
  readonly maxBatch?: number
  /** Run with the events of every transaction once it committed (to wake what waits for them). */
  readonly committed?: (events: ReadonlyArray<Event>) => Effect.Effect<void>
  /**
   * Run after each batch commits and before its callers hear of it, where the commit alone does
   * not survive power loss: SQLite's log flushed off the event loop (`SqliteStore.ts`).
   */
  readonly durable?: Effect.Effect<void> | undefined
}

const dedupeKeys = (keys: ReadonlyArray<IdempotencyKey>) =>
  Array.from(new Map(keys.map((k) => [`${k.provider}\u0000${k.providerMessageId}`, k])).values())

/** A request's outcome, and what to wait for before its caller hears of it. */
interface Answer {
  readonly outcome: CommitOutcome
  readonly durable: Effect.Effect<void>
}

/** An append's own outcome: the committer answers every request with an outcome of its kind. */
const appended = (outcome: CommitOutcome) =>
  outcome._tag === "Append" ? outcome.exit : Exit.die(new Error("an append answered as a side write"))

/** Build the store, and the committer its appends go through, over the SqlClient in context. */
export const make = (
  options: Options
): Effect.Effect<{ readonly store: EventStore["Type"]; readonly committer: Committer["Type"] }, never, SqlClient | Scope.Scope> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const { dialect, project } = options

    const commit = commitBatch({ sql, dialect, project })
    const flusher = options.durable === undefined ? undefined : yield* Flusher.make(options.durable)
    const scope = yield* Effect.scope
    const committed = (requests: ReadonlyArray<CommitRequest>) =>
      options.committed?.(requests.flatMap((r) => (r._tag === "Append" ? r.events : []))) ?? Effect.void
    // Each request is answered with its outcome and what its caller waits for before hearing of it:
    // the flush that carries the batch, which runs while the committer goes on to the next batch.
    // What waits for the events is woken once they are durable too. One span per transaction,
    // with its size, rather than one per append: a span costs about 12 µs, a tenth of what an
    // append costs in a full batch.
    const queue = yield* GroupCommit.make(
      options.maxBatch ?? 256,
      (requests: ReadonlyArray<CommitRequest>) =>
        Effect.withSpan(commit(requests), "EventStore.commitBatch", { attributes: { requests: requests.length } }).pipe(
          Effect.flatMap((outcomes): Effect.Effect<ReadonlyArray<Answer>> => {
            if (flusher === undefined) return Effect.as(committed(requests), outcomes.map((outcome) => ({ outcome, durable: Effect.void })))
            const durable = flusher.ask()
            return Effect.as(Effect.forkIn(Effect.zipRight(durable, committed(requests)), scope), outcomes.map((outcome) => ({ outcome, durable })))
          })
        )
    )

    const alongside = <A>(key: string, write: Effect.Effect<A, SqlError | StoreError, SqlClient>) =>
      Effect.suspend(() => {
        let answer: Effect.Effect<A> = Effect.dieMessage("a side write answered before it ran")
        const side = Effect.map(write, (value) => void (answer = Effect.succeed(value)))
        return queue.submit({ _tag: "SideWrite", key, write: side }).pipe(
          Effect.flatMap(({ durable, outcome }) =>
            Effect.zipRight(durable, outcome._tag === "SideWrite" ? outcome.exit : Effect.dieMessage("a side write answered as an append"))
          ),
          Effect.zipRight(Effect.suspend(() => answer))
        )
      })

    const recordedKeys = (keys: ReadonlyArray<IdempotencyKey>) =>
      Effect.map(
        Effect.forEach(keys, (key) =>
          sql<{ n: number }>`SELECT 1 AS n FROM idempotency_keys
            WHERE provider = ${key.provider} AND provider_message_id = ${key.providerMessageId}`.pipe(
            Effect.map((rows) => (rows.length > 0 ? [key] : []))
          )),
        (found) => found.flat()
      )

    const currentVersion = (stream: string) =>
      Effect.map(
        sql<{ v: number | string | null }>`SELECT MAX(version) AS v FROM events WHERE stream = ${stream}`,
        (rows) => Number(rows[0]?.v ?? 0)
      )

    const request = (append: BatchAppend, now: number): AppendRequest => ({
      _tag: "Append",
      stream: append.stream,
      expectedVersion: append.expectedVersion,
      events: append.events,
      keys: dedupeKeys(append.options?.idempotencyKeys ?? []),
      metadata: {
        correlationId: append.options?.metadata?.correlationId ?? null,
        causationId: append.options?.metadata?.causationId ?? null
      },
      now
    })

    const append = Effect.fnUntraced(function*(
      stream: string,
      expectedVersion: ExpectedVersion,
      events: ReadonlyArray<Event>,
      options: AppendOptions = {}
    ) {
      // The caller's clock, not the committer fiber's: the time the append was asked for.
      const now = yield* Clock.currentTimeMillis
      const { durable, outcome } = yield* queue.submit(request({ stream, expectedVersion, events, options }, now))
      yield* durable
      return yield* appended(outcome)
    })

    const appendBatch = (appends: ReadonlyArray<BatchAppend>) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.flatMap(queue.submitAll(appends.map((a) => request(a, now))), (answers) =>
          Effect.as(
            Effect.forEach(answers, (answer) => answer.durable, { discard: true }),
            answers.map((answer) => appended(answer.outcome))
          )))

    const isRecorded = (key: IdempotencyKey) =>
      recordedKeys([key]).pipe(Effect.map((found) => found.length > 0), Effect.mapError(sqlError))

    const readStream = Effect.fn("EventStore.readStream")(function*(stream: string, afterVersion = 0) {
      const rows = yield* sql<EventRow>`SELECT position, tx_id, stream, version, type, schema_version, payload,
        metadata, recorded_at FROM events WHERE stream = ${stream} AND version > ${afterVersion} ORDER BY version`.pipe(
        Effect.mapError(sqlError)
      )
      return yield* toRecordedAll(rows)
    })

    const readPage = (
      from: Checkpoint,
      limit: number,
      types?: ReadonlyArray<Event["_tag"]>
    ): Effect.Effect<ReadonlyArray<RecordedEvent>, StoreError> =>
      dialect.readAfter(sql, from, limit, types).pipe(Effect.mapError(sqlError), Effect.flatMap(toRecordedAll))

    const pages = (from: Checkpoint, options: ReadOptions) => {
      const pageSize = options.pageSize ?? 1000
      return Stream.paginateChunkEffect(from, (cursor) =>
        Effect.map(readPage(cursor, pageSize, options.types), (page) => {
          const last = page[page.length - 1]
          const next = last === undefined || page.length < pageSize ? Option.none() : Option.some(checkpointOf(last))
          return [Chunk.unsafeFromArray(page), next] as const
        }))
    }

    const readAll = (from: Checkpoint, options: ReadOptions = {}) => pages(from, options)

    const subscribe = (from: Checkpoint, options: SubscribeOptions = {}) =>
      Stream.unwrap(Effect.sync(() => {
        let cursor = from
        const advance = (to: Checkpoint) => Effect.sync(() => void (isAfter(to, cursor) && (cursor = to)))
        const read = Stream.suspend(() => pages(cursor, options)).pipe(Stream.tap((event) => advance(checkpointOf(event))))
        // Filtered, a pass ends at the head seen before it: every event up to there was read or skipped.
        const catchUp = options.types === undefined ? read : Stream.unwrap(
          Effect.map(Effect.mapError(dialect.head(sql), sqlError), (head) => Stream.concat(read, Stream.execute(advance(head))))
        )
        return Stream.repeat(catchUp, Schedule.spaced(options.pollInterval ?? 100))
      }))

    const store = EventStore.of({
      backend: dialect.backend,
      append,
      appendBatch,
      isRecorded,
      streamVersion: (stream) => currentVersion(stream).pipe(Effect.mapError(sqlError)),
      readStream,
      head: dialect.head(sql).pipe(Effect.mapError(sqlError)),
      readPage,
      readAll,
      subscribe
    })
    return { store, committer: Committer.of({ alongside }) }
  })
