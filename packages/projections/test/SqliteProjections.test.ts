/** Read-model projections on SQLite. */
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

describe("projections on SQLite", () => {
  projectionsConformance(() => Database.sqlite())
})

describe("queries on SQLite", () => {
  queriesConformance(() => Database.sqlite())
})

describe("job queries on SQLite", () => {
  jobQueriesConformance(() => Database.sqlite())
})

describe("blobs on SQLite", () => {
  blobsConformance(() => Database.sqlite())
})

describe("search on SQLite", () => {
  searchConformance(() => Database.sqlite())
})

describe("curation on SQLite", () => {
  curationConformance(() => Database.sqlite())
  unmergeConformance(() => Database.sqlite())
})

describe("row writes on SQLite", () => {
  flushConformance(() => Database.sqlite())
})

describe("reminder queries on SQLite", () => {
  reminderQueriesConformance(() => Database.sqlite())
})
