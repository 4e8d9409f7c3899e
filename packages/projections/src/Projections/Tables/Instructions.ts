/** The table the instructions projection owns: `instructions`, what a plan filed as said to the bot. */
import { Schema } from "effect"
import { Big, Int, table, Text } from "../Columns.js"

export const instructions = table({
  name: "instructions",
  row: Schema.Struct({ position: Big, session_id: Text, plan_id: Text, message_id: Text, seq: Int, kind: Text, text: Text }),
  key: "position",
  indexed: ["plan_id", "message_id"],
  created: [
    `CREATE TABLE instructions (position BIGINT PRIMARY KEY, session_id TEXT NOT NULL, plan_id TEXT NOT NULL,
    message_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL)`,
    `CREATE INDEX instructions_message ON instructions (message_id)`
  ]
})
