/** The event store's conformance suite on PostgreSQL: the server in VERBATIM_TEST_DATABASE_URL, else PGlite. */
import { describe } from "@effect/vitest"
import * as Database from "@verbatim/testkit/Database"
import { commitConformance } from "./CommitConformance.js"
import { storeConformance } from "./StoreConformance.js"

describe("EventStore on PostgreSQL", () => {
  storeConformance(Database.pg)
  commitConformance(Database.pg)
})
