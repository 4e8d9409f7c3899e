/** Read-model projections on PostgreSQL: the server in VERBATIM_TEST_DATABASE_URL, else PGlite. */
import { describe } from "@effect/vitest"
import * as Database from "@verbatim/testkit/Database"
import { blobsConformance } from "./BlobsConformance.js"
import { curationConformance } from "./CurationConformance.js"
import { unmergeConformance } from "./UnmergeConformance.js"
import { flushConformance } from "./FlushConformance.js"
import { jobQueriesConformance } from "./JobQueriesConformance.js"
import { projectionsConformance } from "./ProjectionsConformance.js"
import { searchConformance } from "./SearchConformance.js"
import { queriesConformance } from "./QueriesConformance.js"
import { reminderQueriesConformance } from "./ReminderQueriesConformance.js"

describe("projections on PostgreSQL", () => {
  projectionsConformance(() => Database.pg)
})

describe("queries on PostgreSQL", () => {
  queriesConformance(() => Database.pg)
})

describe("job queries on PostgreSQL", () => {
  jobQueriesConformance(() => Database.pg)
})

describe("blobs on PostgreSQL", () => {
  blobsConformance(() => Database.pg)
})

describe("search on PostgreSQL", () => {
  searchConformance(() => Database.pg)
})

describe("curation on PostgreSQL", () => {
  curationConformance(() => Database.pg)
  unmergeConformance(() => Database.pg)
})

describe("row writes on PostgreSQL", () => {
  flushConformance(() => Database.pg)
})

describe("reminder queries on PostgreSQL", () => {
  reminderQueriesConformance(() => Database.pg)
})
