/**
 * The read-model tables, gathered from the projections that own them (`Tables/`, one file per
 * projection): each table's row type by name, for the batch, and every table's DDL. The tables
 * are rebuildable from the log, so their DDL is shared by both backends; the migration steps
 * that changed them since are in `TableHistory.ts`.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, type Schema } from "effect"
import { asks } from "./Tables/Asks.js"
import { forgottenItems, noteErasures } from "./Tables/Erasures.js"
import { instructions } from "./Tables/Instructions.js"
import { messageEdits, messageMedia, messages } from "./Tables/Messages.js"
import { confirmations, noteDirectives, notes, noteSources } from "./Tables/Notes.js"
import { people } from "./Tables/People.js"
import { plans } from "./Tables/Plans.js"
import { questionMessages, questions } from "./Tables/Questions.js"
import { reminders } from "./Tables/Reminders.js"
import { replies } from "./Tables/Replies.js"
import { sessions } from "./Tables/Sessions.js"
import { userZones } from "./Tables/UserZones.js"

/** Every table, in the order a batch writes them; each with the columns that order its dump (its primary key). */
export const tables = [
  people,
  sessions,
  messages,
  messageEdits,
  messageMedia,
  plans,
  notes,
  noteSources,
  noteDirectives,
  noteErasures,
  forgottenItems,
  questions,
  questionMessages,
  confirmations,
  instructions,
  replies,
  reminders,
  userZones,
  asks
] as const

type Table = (typeof tables)[number]

export type TableName = Table["name"]

/** A row of the named table, as a batch holds it. */
export type RowOf<T extends TableName> = Schema.Schema.Type<Extract<Table, { readonly name: T }>["row"]>

/** The columns of the named table. */
export type ColumnOf<T extends TableName> = keyof RowOf<T> & string

/** A read-model row of any table, column name to value, as stored. */
export type Row = Record<string, unknown>

/** The tables migration 2 created, as it created them. */
const ddl = [
  ...people.created,
  ...sessions.created,
  ...messages.created,
  ...messageEdits.created,
  ...plans.created,
  ...notes.created,
  ...noteSources.created,
  ...noteDirectives.created,
  ...questions.created,
  ...questionMessages.created,
  ...confirmations.created,
  ...instructions.created,
  ...replies.created
]

/** Create every read-model table (a migration). */
export const createTables = Effect.gen(function*() {
  const sql = yield* SqlClient
  for (const statement of ddl) yield* sql.unsafe(statement)
})

/** Empty every read-model table, ready for a replay from position 0. */
export const truncateTables = Effect.gen(function*() {
  const sql = yield* SqlClient
  for (const table of tables) yield* sql.unsafe(`DELETE FROM ${table.name}`)
})
