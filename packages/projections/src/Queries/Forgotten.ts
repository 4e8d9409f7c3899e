/** What a forgetting left at a note's or person's address: whose it was and when it went, no words. */
import { SqlClient } from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { type NoteId, type PersonId, UserId } from "@verbatim/domain/Ids"
import { Effect, Option, Schema } from "effect"
import { IsoTime } from "./Columns.js"

const Trace = Schema.Struct({ user_id: UserId, forgotten_at: IsoTime })

/** Whose note or person `id` was and when a forgetting took it; none when it never was, or still is. */
export const forgottenItem = Effect.fn("Notebook.forgottenItem")(function*(kind: "note" | "person", id: NoteId | PersonId) {
  const sql = yield* SqlClient
  const row = yield* SqlSchema.findOne({
    Request: Schema.Struct({ kind: Schema.Literal("note", "person"), id: Schema.String }),
    Result: Trace,
    execute: (r) => sql`SELECT user_id, forgotten_at FROM forgotten_items WHERE kind = ${r.kind} AND item_id = ${r.id}`
  })({ kind, id })
  return Option.map(row, (r) => ({ user: r.user_id, at: r.forgotten_at }))
})
