/**
 * The quotes an asker confirmed, kept beside the question on SQLite and on PostgreSQL: in the
 * order confirmed, the same rebuilt from the log, and a store migrated from before they were kept
 * reads them from its log exactly as a rebuild writes them.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { AskBook } from "@verbatim/projections/AskBook"
import { fillConfirmedQuotes } from "@verbatim/projections/Migrations"
import { rebuild } from "@verbatim/projections/Projections/Rebuild"
import type { Services } from "@verbatim/projections/Store"
import * as Database from "@verbatim/testkit/Database"
import * as G from "@verbatim/testkit/Given"
import * as A from "@verbatim/testkit/GivenAsks"
import { Effect } from "effect"
import type { Layer } from "effect"

const said = "Ana 👩🏽‍💻 moves to Lisbon in May"

const history = G.given(
  [G.sessionStream("s"), [G.sessionOpened("s"), G.messageReceived("s", 1, said), G.sessionClosed("s", 1)]],
  [A.stream("a1"), [A.askPosed("a1", "where does Ana move?", 100), A.askAnswered("a1", "s/1", said, 110)]],
  [A.stream("a1"), [A.askQuoteConfirmed("a1", "s/1", 0, said.length, 120)]],
  [A.stream("a2"), [A.askPosed("a2", "when?", 200), A.askAnswered("a2", "s/1", said, 210)]],
  [A.stream("a3"), [A.askPosed("a3", "who?", 300), A.askFailed("a3", 310)]]
)

const expected = [
  { askId: "a3", confirmed: null },
  { askId: "a2", confirmed: null },
  { askId: "a1", confirmed: [`s/1:0-${said.length}`] }
]

const conformance = (layer: () => Layer.Layer<Services, unknown>) => {
  it.effect("keeps each question's confirmed quotes; rebuilt and migrated alike", () =>
    Effect.gen(function*() {
      yield* history
      const book = yield* AskBook
      const asks = Effect.map(book.of(G.user, 10), (rows) => rows.map((r) => ({ askId: r.askId, confirmed: r.confirmed })))
      expect(yield* asks).toEqual(expected)
      const sql = yield* SqlClient
      const stored = sql<{ ask_id: string; confirmed: string | null }>`SELECT ask_id, confirmed FROM asks ORDER BY ask_id`
      const live = yield* stored
      yield* rebuild()
      expect(yield* stored).toEqual(live)
      yield* sql`UPDATE asks SET confirmed = NULL`
      yield* fillConfirmedQuotes
      expect(yield* stored).toEqual(live)
      expect(yield* asks).toEqual(expected)
    }).pipe(Effect.provide(layer())))
}

describe("the quotes askers confirmed on SQLite", () => {
  conformance(() => Database.sqlite())
})

describe("the quotes askers confirmed on PostgreSQL", () => {
  conformance(() => Database.pg)
})
