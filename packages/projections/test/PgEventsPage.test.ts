/** The event log's pages on PostgreSQL follow (transaction id, position): a late commit is not skipped. */
import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { EventLog } from "@verbatim/projections/EventLog"
import * as Database from "@verbatim/testkit/Database"
import * as G from "@verbatim/testkit/Given"
import { Effect } from "effect"

describe("the event log's pages on PostgreSQL", () => {
  it.effect("an event whose transaction commits after a later position was read comes on the next page", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const read = yield* EventLog
      yield* G.given([G.sessionStream("a"), [G.sessionOpened("a")]])
      yield* G.given([G.sessionStream("a"), [G.messageReceived("a", 1, "one")]])
      yield* G.given([G.sessionStream("a"), [G.messageReceived("a", 2, "two")]])
      const [third] = yield* sql<{ tx: string }>`SELECT tx_id::text AS tx FROM events WHERE position = 3`
      // Position 2 as a transaction still running: its id is beyond every reader's snapshot.
      yield* sql`UPDATE events SET tx_id = 9000000000 WHERE position = 2`
      const first = yield* read.events(undefined, 100)
      // It commits: a later transaction id than position 3's, now below the snapshot.
      yield* sql`UPDATE events SET tx_id = ${Number(third!.tx) + 1} WHERE position = 2`
      const second = yield* read.events(first.nextAfter, 100)
      expect([first.events.map((e) => e.position), second.events.map((e) => e.position)]).toEqual([[1, 3], [2]])
    }).pipe(Effect.provide(Database.pg)))
})
