/** The read API's page of the event log, sized by its payloads' bytes. */
import { checkpointOfCursor, cursorOf, type EventsPage } from "@verbatim/domain/ApiResponses"
import { Event } from "@verbatim/domain/Events"
import { Effect, Schema } from "effect"
import { type Checkpoint, checkpointOf, EventStore, type RecordedEvent, start } from "../EventStore.js"

const encodeEvent = Schema.encodeSync(Event)

/** Bytes of an event's payload as the API sends it. */
const payloadBytes = (event: Event): number => Buffer.byteLength(JSON.stringify(encodeEvent(event)), "utf8")

/** Rows read at first; later reads are sized by the payloads seen so far. */
const firstRead = 8

/**
 * Events after a cursor, in the order a catch-up reader must follow (on PostgreSQL, committed
 * transactions older than every running one, by transaction id then position), so paging never
 * skips an event whose transaction committed after a later position was read.
 *
 * At most `limit` events whose payloads together fit `maxBytes`, but always at least one, so
 * paging moves on past an event larger than the budget. Rows are read a few at a time: a page of
 * 500 large messages is never held whole.
 */
export const events = (after: string | undefined, limit: number, maxBytes = Number.POSITIVE_INFINITY) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const from = after === undefined ? start : checkpointOfCursor(after)
    const kept: Array<RecordedEvent> = []
    let bytes = 0
    let cursor: Checkpoint = from
    let want = Math.min(limit, firstRead)
    while (kept.length < limit) {
      const read = yield* store.readPage(cursor, want)
      let full = false
      for (const r of read) {
        const size = payloadBytes(r.event)
        if (kept.length > 0 && bytes + size > maxBytes) {
          full = true
          break
        }
        kept.push(r)
        bytes += size
        if (kept.length === limit) break
      }
      if (full || read.length < want) break
      cursor = checkpointOf(read[read.length - 1]!)
      const remaining = limit - kept.length
      const fitting = Number.isFinite(maxBytes) ? Math.floor((maxBytes - bytes) / Math.max(1, bytes / kept.length)) + 1 : remaining
      want = Math.max(1, Math.min(remaining, fitting))
    }
    const last = kept[kept.length - 1]
    const page: EventsPage = {
      events: kept.map((r) => ({
        position: r.position,
        cursor: cursorOf(r),
        streamId: r.stream,
        streamVersion: r.version,
        event: r.event,
        recordedAt: r.recordedAt
      })),
      nextAfter: cursorOf(last ?? from)
    }
    return page
  })
