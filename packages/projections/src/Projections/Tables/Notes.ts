/**
 * The tables the notes projection owns: `notes`, their `note_sources` and `note_directives`, and
 * the `confirmations` an answered question's note records.
 */
import { Schema } from "effect"
import { Big, Int, Null, table, Text } from "../Columns.js"

export const notes = table({
  name: "notes",
  row: Schema.Struct({
    note_id: Text,
    session_id: Text,
    user_id: Text,
    plan_id: Null(Text),
    question_id: Null(Text),
    owner_kind: Text,
    owner_contact_id: Null(Text),
    owner_name: Null(Text),
    person_id: Null(Text),
    filed_person_id: Null(Text),
    merged_from: Int,
    body: Text,
    unmatched_directives: Int,
    position: Big,
    discarded_at: Null(Text)
  }),
  key: "note_id",
  indexed: ["plan_id", "person_id"],
  strict: true,
  created: [
    `CREATE TABLE notes (note_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, user_id TEXT NOT NULL, plan_id TEXT,
    question_id TEXT, owner_kind TEXT NOT NULL, owner_contact_id TEXT, owner_name TEXT, person_id TEXT,
    merged_from INTEGER NOT NULL, body TEXT NOT NULL, unmatched_directives INTEGER NOT NULL, position BIGINT NOT NULL)`,
    `CREATE INDEX notes_person ON notes (person_id)`,
    `CREATE INDEX notes_session ON notes (session_id)`
  ]
})

export const noteSources = table({
  name: "note_sources",
  row: Schema.Struct({ message_id: Text, note_id: Text, seq: Int }),
  key: "message_id",
  indexed: ["note_id"],
  strict: true,
  created: [
    `CREATE TABLE note_sources (message_id TEXT PRIMARY KEY, note_id TEXT NOT NULL, seq INTEGER NOT NULL)`,
    `CREATE INDEX note_sources_note ON note_sources (note_id)`
  ]
})

export const noteDirectives = table({
  name: "note_directives",
  row: Schema.Struct({ note_id: Text, ordinal: Int, message_id: Text, seq: Int, text: Text, matched: Int }),
  key: "note_id, ordinal",
  indexed: ["note_id"],
  strict: true,
  created: [
    `CREATE TABLE note_directives (note_id TEXT NOT NULL, ordinal INTEGER NOT NULL, message_id TEXT NOT NULL,
    seq INTEGER NOT NULL, text TEXT NOT NULL, matched INTEGER NOT NULL, PRIMARY KEY (note_id, ordinal))`
  ]
})

export const confirmations = table({
  name: "confirmations",
  row: Schema.Struct({ message_id: Text, question_id: Text, note_id: Text }),
  key: "message_id",
  strict: true,
  created: [`CREATE TABLE confirmations (message_id TEXT PRIMARY KEY, question_id TEXT NOT NULL, note_id TEXT NOT NULL)`]
})
