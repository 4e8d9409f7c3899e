/** Leases on SQLite. */
import { describe } from "@effect/vitest"
import * as Database from "@verbatim/testkit/Database"
import { leasesConformance } from "./LeasesConformance.js"

describe("leases on SQLite", () => {
  leasesConformance(() => Database.sqlite())
})
