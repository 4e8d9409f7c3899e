/** Leases on PostgreSQL: the server in VERBATIM_TEST_DATABASE_URL, else PGlite. */
import { describe } from "@effect/vitest"
import * as Database from "@verbatim/testkit/Database"
import { leasesConformance } from "./LeasesConformance.js"

describe("leases on PostgreSQL", () => {
  leasesConformance(() => Database.pg)
})
