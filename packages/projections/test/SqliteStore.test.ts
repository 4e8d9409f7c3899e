/** The event store's conformance suite on SQLite (a temp file). */
import { describe } from "@effect/vitest"
import * as Database from "@verbatim/testkit/Database"
import { commitConformance } from "./CommitConformance.js"
import { storeConformance } from "./StoreConformance.js"

describe("EventStore on SQLite", () => {
  storeConformance(Database.sqlite())
  commitConformance(Database.sqlite())
})
