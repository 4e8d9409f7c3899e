/**
 * The tables the erasures projection owns: what a forgetting leaves to say it happened, with none
 * of the words: `note_erasures` (the messages a kept note lost, for its audit) and
 * `forgotten_items` (the notes and people that went; their addresses say so, a 410).
 */
import { Schema } from "effect"
import { Int, table, Text } from "../Columns.js"

export const noteErasures = table({
  name: "note_erasures",
  row: Schema.Struct({ note_id: Text, message_id: Text, seq: Int, erased_at: Text }),
  key: "note_id, message_id",
  indexed: ["note_id"],
  created: [
    `CREATE TABLE note_erasures (note_id TEXT NOT NULL, message_id TEXT NOT NULL, seq INTEGER NOT NULL,
    erased_at TEXT NOT NULL, PRIMARY KEY (note_id, message_id))`
  ]
})

export const forgottenItems = table({
  name: "forgotten_items",
  row: Schema.Struct({ kind: Text, item_id: Text, user_id: Text, forgotten_at: Text }),
  key: "kind, item_id",
  created: [
    `CREATE TABLE forgotten_items (kind TEXT NOT NULL, item_id TEXT NOT NULL, user_id TEXT NOT NULL,
    forgotten_at TEXT NOT NULL, PRIMARY KEY (kind, item_id))`
  ]
})
