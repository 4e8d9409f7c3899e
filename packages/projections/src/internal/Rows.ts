/** Decoding rows of the events table into recorded events, and reads run with the store's typed error. */
import { SqlClient } from "@effect/sql/SqlClient"
import { DateTime, Effect, Either, ParseResult } from "effect"
import type { StoredEvent } from "../EventCodec.js"
import { decode, decodeStored } from "../EventCodec.js"
import type { EventMetadata, RecordedEvent } from "../EventStore.js"
import { StoreError } from "../EventStore.js"
import type { EventRow, ReplayRow } from "./Dialect.js"

/** Decode one row, upcasting its payload; a row that cannot be decoded is a typed error. */
export const toRecorded = (row: EventRow): Either.Either<RecordedEvent, StoreError> =>
  Either.map(decode(row.type, Number(row.schema_version), row.payload), (event) => ({
    position: Number(row.position),
    txId: Number(row.tx_id),
    stream: row.stream,
    version: Number(row.version),
    event,
    metadata: JSON.parse(row.metadata) as EventMetadata,
    recordedAt: DateTime.unsafeMake(Number(row.recorded_at))
  }))

/** What a replay applies: the event in its stored form, its position and the reader's checkpoint. */
export interface Replayed extends Pick<RecordedEvent, "position" | "txId"> {
  readonly event: StoredEvent
}

/** Read a replayed row: only what the projector and the reader's checkpoint use, checked but not decoded. */
export const toReplayed = (row: ReplayRow): Either.Either<Replayed, StoreError> =>
  Either.map(decodeStored(row.type, Number(row.schema_version), row.payload), (event) => ({
    position: Number(row.position),
    txId: Number(row.tx_id),
    event
  }))

/** Decode a page of rows, failing on the first row that does not decode. */
export const decodeAll = <Row, A>(
  rows: ReadonlyArray<Row>,
  decodeRow: (row: Row) => Either.Either<A, StoreError>
): Either.Either<Array<A>, StoreError> => {
  const out: Array<A> = []
  for (const row of rows) {
    const decoded = decodeRow(row)
    if (Either.isLeft(decoded)) return Either.left(decoded.left)
    out.push(decoded.right)
  }
  return Either.right(out)
}

/** Decode a page of rows into recorded events. */
export const toRecordedAll = (rows: ReadonlyArray<EventRow>) => decodeAll(rows, toRecorded)

/** Any storage failure as the store's typed error. */
export const sqlError = (cause: unknown) => new StoreError({ reason: "sql", message: String(cause), cause })

/** A failed query or a row that does not decode, as the store's typed error. */
export const toStoreError = (error: unknown): StoreError =>
  error instanceof StoreError
    ? error
    : ParseResult.isParseError(error)
    ? new StoreError({ reason: "decode", message: error.message, cause: error })
    : sqlError(error)

/** Run a query on a client taken when a read service is built, its failures as the store's typed error. */
export const runOn = (sql: SqlClient) => <A, E>(effect: Effect.Effect<A, E, SqlClient>): Effect.Effect<A, StoreError> =>
  effect.pipe(Effect.provideService(SqlClient, sql), Effect.mapError(toStoreError))
