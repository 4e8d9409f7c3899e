/** What a forgetting left at a note's or person's address: whose it was and when it went, no words. */
import { SqlClient } from "@effect/sql/SqlClient"
import { type NoteId, type PersonId, UserId } from "@verbatim/domain/Ids"
import { Effect, Option, Schema } from "effect"
import { decodeRows, IsoTime } from "./Columns.js"

const Trace = Schema.Struct({ user_id: UserId, forgotten_at: IsoTime })

/** Whose note or person `id` was and when a forgetting took it; none when it never was, or still is. */
export const forgottenItem = Effect.fn("Notebook.forgottenItem")(function*(kind: "note" | "person", id: NoteId | PersonId) {
  const sql = yield* SqlClient
  const rows = yield* decodeRows(Trace)(sql`SELECT user_id, forgotten_at FROM forgotten_items WHERE kind = ${kind} AND item_id = ${id}`)
  return Option.map(Option.fromNullable(rows[0]), (row) => ({ user: row.user_id, at: row.forgotten_at }))
})
