/**
 * Fill the log for the store benchmarks: sessions of 11 events (opened, 8 messages, closed, one
 * note with a directive) written straight into the events table, 250 rows a statement.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { encode } from "@verbatim/projections/EventCodec"
import * as G from "@verbatim/testkit/Given"
import type { Event } from "@verbatim/domain/Events"
import { Effect } from "effect"

const metadata = JSON.stringify({ correlationId: null, causationId: null })

/** One row of the events table for `event` at `version` of `stream`, as an append writes it. */
export const eventRow = (stream: string, version: number, event: Event): Record<string, string | number> => {
  const encoded = encode(event)
  return { stream, version, type: encoded.type, schema_version: encoded.schemaVersion, payload: encoded.payload, metadata, recorded_at: 0 }
}

/** Write rows straight into the events table, 250 a statement, in one transaction. */
export const insertEventRows = (rows: ReadonlyArray<Record<string, string | number>>) =>
  Effect.flatMap(SqlClient, (sql) =>
    sql.withTransaction(Effect.gen(function*() {
      for (let i = 0; i < rows.length; i += 250) yield* sql`INSERT INTO events ${sql.insert(rows.slice(i, i + 250))}`
    })))

/** Write `events` events; returns how many were written. */
export const fillLog = (events: number) =>
  Effect.gen(function*() {
    const sessions = Math.ceil(events / 11)
    let written = 0
    for (let from = 0; from < sessions && written < events; from += 200) {
      const rows: Array<Record<string, string | number>> = []
      for (let s = from; s < Math.min(sessions, from + 200); s++) {
        const id = `fill-${s}`
        const history = [
          G.sessionOpened(id),
          ...Array.from({ length: 8 }, (_, k) => G.messageReceived(id, k + 1, `Message ${k + 1} of ${id}: Ana moved to Lyon, remind me`)),
          G.sessionClosed(id, 8),
          G.noteRecorded(id, `note-${id}`, [1, 2, 3, 4, 5, 6, 7, 8], { directives: [[8, ", remind me"]] })
        ].slice(0, events - written - rows.length)
        history.forEach((event, v) => rows.push(eventRow(G.sessionStream(id), v + 1, event)))
      }
      for (let i = 0; i < rows.length; i += 250) yield* insertEventRows(rows.slice(i, i + 250))
      written += rows.length
    }
    return written
  })
