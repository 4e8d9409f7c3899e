/** The table the user zones projection owns: `user_zones`, each user's time zone as they set it last. */
import { Schema } from "effect"
import { Big, table, Text } from "../Columns.js"

export const userZones = table({
  name: "user_zones",
  row: Schema.Struct({ user_id: Text, zone: Text, position: Big }),
  key: "user_id",
  created: [`CREATE TABLE user_zones (user_id TEXT PRIMARY KEY, zone TEXT NOT NULL, position BIGINT NOT NULL)`]
})
