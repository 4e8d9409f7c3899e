/** Decoding rows of the events table into recorded events. */
import { DateTime, Either } from "effect"
import { decode } from "../EventCodec.js"
import type { EventMetadata, RecordedEvent } from "../EventStore.js"
import { StoreError } from "../EventStore.js"
import type { EventRow } from "./Dialect.js"

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

/** Decode a page of rows, failing on the first row that does not decode. */
export const toRecordedAll = (rows: ReadonlyArray<EventRow>): Either.Either<Array<RecordedEvent>, StoreError> => {
  const out: Array<RecordedEvent> = []
  for (const row of rows) {
    const decoded = toRecorded(row)
    if (Either.isLeft(decoded)) return Either.left(decoded.left)
    out.push(decoded.right)
  }
  return Either.right(out)
}

/** Any storage failure as the store's typed error. */
export const sqlError = (cause: unknown) => new StoreError({ reason: "sql", message: String(cause), cause })
