/** The append-only event log: the contract every backend implements. */
import type { Event } from "@verbatim/domain/Events"
import type { Provider } from "@verbatim/domain/Ids"
import { Context, Data } from "effect"
import type { DateTime, Effect, Exit, Stream } from "effect"

/** The stream version an append expects: 0 for a new stream, or `"any"` to skip the check. */
export type ExpectedVersion = number | "any"

/** A provider's delivery identity; recording it twice is what a webhook redelivery looks like. */
export interface IdempotencyKey {
  readonly provider: Provider
  readonly providerMessageId: string
}

/** Why an event was recorded: the request it belongs to and the event or command that caused it. */
export interface EventMetadata {
  readonly correlationId: string | null
  readonly causationId: string | null
}

export interface AppendOptions {
  /** Written in the append's transaction; if any was already recorded the append is a no-op. */
  readonly idempotencyKeys?: ReadonlyArray<IdempotencyKey>
  readonly metadata?: Partial<EventMetadata>
}

/** One append of an `appendBatch`. */
export interface BatchAppend {
  readonly stream: string
  readonly expectedVersion: ExpectedVersion
  readonly events: ReadonlyArray<Event>
  readonly options?: AppendOptions
}

/** What an append did: committed events at these positions, or nothing because a key was already recorded. */
export type AppendResult = Data.TaggedEnum<{
  Appended: { readonly positions: ReadonlyArray<number>; readonly version: number }
  AlreadyRecorded: { readonly keys: ReadonlyArray<IdempotencyKey> }
}>
export const AppendResult = Data.taggedEnum<AppendResult>()

/**
 * Where a reader stands. On PostgreSQL positions are taken before commit, so the writing
 * transaction id is part of the order; on SQLite `txId` is always 0 and position is commit order.
 */
export interface Checkpoint {
  readonly txId: number
  readonly position: number
}

/** The checkpoint before the first event. */
export const start: Checkpoint = { txId: 0, position: 0 }

/** An event as read back from the log, upcast to its current schema version. */
export interface RecordedEvent {
  readonly position: number
  readonly txId: number
  readonly stream: string
  readonly version: number
  readonly event: Event
  readonly metadata: EventMetadata
  readonly recordedAt: DateTime.Utc
}

/** The checkpoint just after an event. */
export const checkpointOf = (event: Pick<RecordedEvent, "txId" | "position">): Checkpoint => ({ txId: event.txId, position: event.position })

/** Whether `a` comes after `b` in reader order. */
export const isAfter = (a: Checkpoint, b: Checkpoint): boolean => a.txId > b.txId || (a.txId === b.txId && a.position > b.position)

/** An append whose expected version did not match the stream: reload and retry. */
export class AppendConflict extends Data.TaggedError("AppendConflict")<{
  readonly stream: string
  readonly expectedVersion: ExpectedVersion
  readonly actualVersion: number
}> {}

/** A storage failure; `duplicate-source` means a projection's unique source index refused an event. */
export class StoreError extends Data.TaggedError("StoreError")<{
  readonly reason: "sql" | "decode" | "duplicate-source"
  readonly message: string
  readonly cause?: unknown
}> {}

export interface ReadOptions {
  /** Rows fetched per query; memory stays bounded by one page. */
  readonly pageSize?: number
  /** Only events of these types (filtered in the query: the others are never decoded). */
  readonly types?: ReadonlyArray<Event["_tag"]>
}

export interface SubscribeOptions extends ReadOptions {
  /** How long to wait before polling again once caught up. */
  readonly pollInterval?: number
}

/** The event store service. */
export class EventStore extends Context.Tag("@verbatim/projections/EventStore")<EventStore, {
  readonly backend: "sqlite" | "pg"
  /** Append events to a stream at an expected version, with inline projections in the same transaction. */
  readonly append: (
    stream: string,
    expectedVersion: ExpectedVersion,
    events: ReadonlyArray<Event>,
    options?: AppendOptions
  ) => Effect.Effect<AppendResult, AppendConflict | StoreError>
  /**
   * Several appends committed together where they can be (one transaction, multi-row inserts),
   * each decided exactly as `append` decides it, in order: a later append to the same stream
   * expects the version the earlier ones leave. One append's failure is its own.
   */
  readonly appendBatch: (
    appends: ReadonlyArray<BatchAppend>
  ) => Effect.Effect<ReadonlyArray<Exit.Exit<AppendResult, AppendConflict | StoreError>>>
  /** Whether a provider message was already recorded. */
  readonly isRecorded: (key: IdempotencyKey) => Effect.Effect<boolean, StoreError>
  /** The current version of a stream (0 when it has no events). */
  readonly streamVersion: (stream: string) => Effect.Effect<number, StoreError>
  /** A stream's events in version order; after `afterVersion` only, when given. */
  readonly readStream: (stream: string, afterVersion?: number) => Effect.Effect<ReadonlyArray<RecordedEvent>, StoreError>
  /** The checkpoint of the newest event a catch-up reader can see now: a subscription from it misses nothing later. */
  readonly head: Effect.Effect<Checkpoint, StoreError>
  /** Up to `limit` committed events after a checkpoint, in reader order (of `types` only, when given). */
  readonly readPage: (
    from: Checkpoint,
    limit: number,
    types?: ReadonlyArray<Event["_tag"]>
  ) => Effect.Effect<ReadonlyArray<RecordedEvent>, StoreError>
  /** Every committed event after a checkpoint up to the current head, paged. */
  readonly readAll: (from: Checkpoint, options?: ReadOptions) => Stream.Stream<RecordedEvent, StoreError>
  /**
   * A catch-up subscription: `readAll`, then keeps polling for new events forever. With `types`,
   * each poll starts from the head seen at the previous one, so a quiet type costs no growing scan.
   */
  readonly subscribe: (from: Checkpoint, options?: SubscribeOptions) => Stream.Stream<RecordedEvent, StoreError>
}>() {}
