/**
 * Writing a batch's rows, run against every backend: the statements differ (multi-row `VALUES`
 * on SQLite, one `unnest` per table on PostgreSQL), so the rows they leave must not.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { refuseDuplicate } from "@verbatim/projections/Projections/Notes"
import { Batch } from "@verbatim/projections/Projections/Rows"
import type { Row, RowOf } from "@verbatim/projections/Projections/Rows"
import type { Services } from "@verbatim/projections/Store"
import { Effect } from "effect"
import type { Layer } from "effect"

/** Text an array literal or a parameter list could mangle: quotes, backslashes, braces, commas, the word NULL, edges of space. */
const awkward = [
  "say \"hi\" \\ {a,b}",
  "NULL",
  "",
  "  padded\t\n",
  "Zoë — 👩‍👩‍👧 e\u0301 漢字",
  "'; DROP TABLE people; --"
]

const person = (id: string, name: string, position: number): RowOf<"people"> => ({ person_id: id, user_id: "u1", name, position, merged_into: null, merged_to: null, former_names: null, active: position })

const session = (id: string, closedAt: string | null, count: number | null): RowOf<"sessions"> => ({
  session_id: id,
  user_id: "u1",
  provider: "telegram",
  chat: `chat ${id}`,
  opened_at: "2026-01-01T00:00:00.000Z",
  closed_at: closedAt,
  close_reason: closedAt === null ? null : "idle",
  message_count: count,
  last_plan_failure: null,
  applied_plans: 0
})

/** Rows as stored, with numbers as numbers (PostgreSQL returns BIGINT as text). */
const rows = (table: string, key: string, numeric: ReadonlyArray<string>) =>
  Effect.flatMap(SqlClient, (sql) =>
    Effect.map(sql.unsafe<Row>(`SELECT * FROM ${table} ORDER BY ${key}`), (found) =>
      found.map((row) => Object.fromEntries(Object.entries(row).map(([c, v]) => [c, numeric.includes(c) && v !== null ? Number(v) : v])))))

const flush = (batch: Batch) => batch.flush(refuseDuplicate)

export const flushConformance = (layer: () => Layer.Layer<Services, unknown>) => {
  it.effect("a page that inserts, updates, deletes and nulls rows leaves exactly the rows it describes", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const first = new Batch()
      awkward.forEach((name, i) => first.put("people", person(`p${i}`, name, i + 1)))
      first.put("sessions", session("s1", null, null))
      first.put("sessions", session("s2", null, null))
      first.put("question_messages", { question_id: "q1", message_id: "m1", seq: 1 })
      first.put("question_messages", { question_id: "q1", message_id: "m2", seq: 2 })
      // Inserted and then changed in the same page: one row, as last changed.
      first.update("sessions", session("s2", null, null), { closed_at: "2026-01-01T00:05:00.000Z", close_reason: "idle", message_count: 3 })
      // Inserted and then deleted in the same page: no row at all.
      first.put("people", person("gone", "never stored", 99))
      first.delete("people", person("gone", "never stored", 99))
      yield* flush(first)

      const second = new Batch()
      for (const row of yield* sql.unsafe<Row>("SELECT * FROM people")) second.load("people", row)
      for (const row of yield* sql.unsafe<Row>("SELECT * FROM sessions")) second.load("sessions", row)
      for (const row of yield* sql.unsafe<Row>("SELECT * FROM question_messages")) second.load("question_messages", row)
      second.delete("people", person("p1", "NULL", 2))
      second.update("people", second.get("people", "p0")!, { name: "renamed \"again\" ✓" })
      second.update("sessions", second.get("sessions", "s2")!, { closed_at: null, close_reason: null, message_count: null })
      second.delete("question_messages", { question_id: "q1", message_id: "m1", seq: 1 })
      second.put("question_messages", { question_id: "q1", message_id: "m3", seq: 3 })
      yield* flush(second)

      // Replaying the first page's inserts changes nothing that is stored: a duplicate is skipped, not written over.
      const replay = new Batch()
      replay.put("people", person("p2", "overwritten?", 3))
      yield* flush(replay)

      expect(yield* rows("people", "person_id", ["position", "active"])).toEqual([
        person("p0", "renamed \"again\" ✓", 1),
        ...awkward.slice(2).map((name, i) => person(`p${i + 2}`, name, i + 3))
      ])
      expect(yield* rows("sessions", "session_id", ["message_count"])).toEqual([session("s1", null, null), session("s2", null, null)])
      expect(yield* rows("question_messages", "question_id, message_id", ["seq"])).toEqual([
        { question_id: "q1", message_id: "m2", seq: 2 },
        { question_id: "q1", message_id: "m3", seq: 3 }
      ])
    }).pipe(Effect.provide(layer())))

  it.effect("a page larger than one statement writes every row, and a duplicate source is refused", () =>
    Effect.gen(function*() {
      const page = new Batch()
      for (let i = 0; i < 3000; i++) page.put("note_sources", { message_id: `m${String(i).padStart(4, "0")}`, note_id: `n${i % 7}`, seq: i })
      yield* flush(page)
      const stored = yield* rows("note_sources", "message_id", ["seq"])
      expect(stored).toEqual(Array.from({ length: 3000 }, (_, i) => ({ message_id: `m${String(i).padStart(4, "0")}`, note_id: `n${i % 7}`, seq: i })))
      const again = new Batch()
      again.put("note_sources", { message_id: "m0001", note_id: "other", seq: 1 })
      const refused = yield* Effect.flip(flush(again))
      expect(refused._tag === "StoreError" ? refused.reason : refused._tag).toBe("duplicate-source")
    }).pipe(Effect.provide(layer())))
}
