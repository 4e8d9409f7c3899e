/**
 * The shape of one read model's projection: the event types it handles, the rows each needs
 * loaded, and how each changes them. The Projector and Load both read projections through this
 * module, so neither imports the other.
 */
import type { EventType } from "@verbatim/domain/Events"
import type { StoredEvent, StoredOf } from "../EventCodec.js"
import type { StoreError } from "../EventStore.js"
import type { Batch } from "./Rows.js"
import type { ColumnOf, RowOf, TableName } from "./Tables.js"

/**
 * What a projection reads of a recorded event: the event in its stored form (as its payload's
 * JSON reads, see `EventCodec`) and its log position. The live path projects the stored form it
 * has just written and a replay the one it has read back, so both read the same values.
 */
export interface Projected {
  readonly event: StoredEvent
  readonly position: number
}

/** The events of the given types, in their stored form. */
export type EventOf<T extends EventType> = StoredOf<T>

/** Where a projection names the stored rows it needs: those whose `column` equals `value`. */
export interface Keys {
  add<T extends TableName>(table: T, column: ColumnOf<T>, value: unknown): void
}

/** One read model's reaction to the events it handles: only events whose tag is in `canHandle` reach it. */
export interface Projection<T extends EventType> {
  /** For messages and tests: the read model's name. */
  readonly name: string
  /** The event tags this projection reacts to. */
  readonly canHandle: ReadonlyArray<T>
  /** Name every stored row `evolve` may read or change for this event, to be loaded beforehand. */
  wants(event: EventOf<T>, position: number, keys: Keys): void
  /**
   * Apply the event's row changes to the batch: keyed by id or log position and setting absolute
   * values, so the same event applied again changes nothing. A refused row is returned as the error.
   */
  evolve(batch: Batch, recorded: { readonly event: EventOf<T>; readonly position: number }): StoreError | void
}

/**
 * A projection of whichever event types, as the Projector holds them. `any` because the event
 * parameters make `Projection` invariant in its types; `canHandle` is what keeps other events out.
 */
export type AnyProjection = Projection<any>

/** Change a row if it exists (an `UPDATE ... WHERE key = ...`). */
export const patch = <T extends TableName>(batch: Batch, table: T, key: unknown, changes: Partial<RowOf<T>>) => {
  const row = batch.get(table, key)
  if (row) batch.update(table, row, changes)
}

/**
 * What one event does to a projection's rows: the rows it needs (`wants`) and the change
 * (`evolve`), written side by side in one case so they cannot drift apart.
 */
export interface Step {
  readonly wants: (keys: Keys) => void
  readonly evolve: (batch: Batch) => StoreError | void
}

/** A projection whose `wants` and `evolve` both come from one function giving each event's `Step`. */
export const stepwise = <T extends EventType>(
  name: string,
  canHandle: ReadonlyArray<T>,
  step: (event: EventOf<T>, position: number) => Step
): Projection<T> => ({
  name,
  canHandle,
  wants: (event, position, keys) => step(event, position).wants(keys),
  evolve: (batch, { event, position }) => step(event, position).evolve(batch)
})
