/** Read-model projections on PostgreSQL: the server in VERBATIM_TEST_DATABASE_URL, else PGlite. */
import { describe } from "@effect/vitest"
import * as Database from "@verbatim/testkit/Database"
import { projectionsConformance } from "./ProjectionsConformance.js"

describe("projections on PostgreSQL", () => {
  projectionsConformance(() => Database.pg)
})
