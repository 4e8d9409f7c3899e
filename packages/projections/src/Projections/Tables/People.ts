/** The table the people projection owns: `people`, each person a user added, with their renames and merges. */
import { Schema } from "effect"
import { Big, Null, table, Text } from "../Columns.js"

export const people = table({
  name: "people",
  row: Schema.Struct({
    person_id: Text,
    user_id: Text,
    name: Text,
    position: Big,
    merged_into: Null(Text),
    former_names: Null(Text),
    merged_to: Null(Text),
    /** Their newest live note's position, or `position` with none (migration 32; kept by `Activity.ts`). */
    active: Big
  }),
  key: "person_id",
  indexed: ["merged_into"],
  created: [
    `CREATE TABLE people (person_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, name TEXT NOT NULL, position BIGINT NOT NULL)`,
    // Replaced by `people_user_id` (migration 29, `Queries/Indexes.ts`).
    `CREATE INDEX people_user ON people (user_id)`
  ]
})
