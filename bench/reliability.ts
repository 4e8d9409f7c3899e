/**
 * The reliability harness: every check runs the real server as a child process on a temp store
 * and fails loudly on any lost or duplicated capture. The server is the bundled command `npm start`
 * runs, built first. `--short` is CI's quick mode.
 * Usage: npm run reliability [-- --short]
 */
import { bundle } from "@verbatim/server/scripts/bundle"
import { asks, asksOnTwoInstances } from "./reliability/Asks.js"
import { bigMessage } from "./reliability/BigMessage.js"
import * as Checks from "./reliability/Checks.js"
import { crashLoop } from "./reliability/CrashLoop.js"
import { forgettingOnTwoInstances } from "./reliability/Forgetting.js"
import * as Isolation from "./reliability/Isolation.js"
import * as Outages from "./reliability/Outages.js"
import { reminders, remindersOnTwoInstances } from "./reliability/Reminders.js"

const options: Checks.Options = { short: process.argv.includes("--short") }
/** The harness's own setting, like the test suite's: a PostgreSQL server it may create databases on. */
const postgresUrl = process.env["VERBATIM_TEST_DATABASE_URL"]
/** A check that needs that server: skipped, saying so, when the harness has none. */
const onPostgres = (check: (o: Checks.Options, url: string) => Promise<string>) => (o: Checks.Options) =>
  postgresUrl === undefined ? Promise.resolve("skipped: VERBATIM_TEST_DATABASE_URL is not set (.ci/run sets it)") : check(o, postgresUrl)
const checks: ReadonlyArray<readonly [string, (o: Checks.Options) => Promise<string>]> = [
  ["redelivery storm", Checks.redeliveryStorm],
  ["crash (kill -9 under load)", Checks.crash],
  ["fuzzed webhook bodies", Checks.fuzz],
  ["a 1 MiB message planned under load", bigMessage],
  ["a crash loop ended by the third attempt", crashLoop],
  ["model outage", Outages.modelOutage],
  ["provider outage", Outages.providerOutage],
  ["tenant isolation", Isolation.tenantIsolation],
  ["asks: a storm, hostile answers and a kill -9 mid-call", asks],
  ["two instances on PostgreSQL", onPostgres(Isolation.twoInstancesOnPostgres)],
  ["asks on two instances on PostgreSQL", onPostgres(asksOnTwoInstances)],
  ["reminders: due across a kill -9 and an outage", reminders],
  ["reminders on two instances on PostgreSQL", onPostgres(remindersOnTwoInstances)],
  ["forgetting on two instances on PostgreSQL", onPostgres(forgettingOnTwoInstances)]
]
const timeLimitMs = options.short ? 120_000 : 600_000

/** `--only NAME` runs the checks whose name contains NAME. */
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] ?? "" : ""

await bundle()

let passed = 0
let failed = 0
for (const [name, check] of checks.filter(([name]) => name.includes(only))) {
  const started = Date.now()
  try {
    const detail = await Promise.race([
      check(options),
      new Promise<string>((_, reject) => setTimeout(() => reject(new Error(`over the ${timeLimitMs / 1000} s limit`)), timeLimitMs))
    ])
    passed += 1
    console.log(`PASS ${name} (${((Date.now() - started) / 1000).toFixed(1)} s): ${detail}`)
  } catch (error) {
    failed += 1
    console.log(`FAIL ${name} (${((Date.now() - started) / 1000).toFixed(1)} s): ${(error instanceof Error ? error.message : String(error)).slice(0, 2_000)}`)
  }
}
console.log(`reliability: ${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
