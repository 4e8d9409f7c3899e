/**
 * Probe: the store's append path alone, in-process on a SQLite file: appends/s and CPU per append
 * with one appender and with 64, after a warm-up; with `--statements`, the time SQLite spends in
 * each statement, per append (every better-sqlite3 `run`/`all`/`get` timed, which slows the run a
 * little). This is how the per-change figures in BENCHMARKS.md "Store" were found; the target
 * itself is measured by `npm run bench:store`.
 *
 *   npm run bench:appends -- [--appends 40000] [--synchronous FULL|NORMAL] [--statements]
 */
import * as Store from "@verbatim/projections/Store"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { type AppendRun, appendPhase } from "./appendPhase.js"

const option = (name: string) => {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? undefined : process.argv[at + 1]
}
const appends = Number(option("appends") ?? 40_000)
const synchronous = option("synchronous") === "NORMAL" ? "NORMAL" : "FULL"
const timeStatements = process.argv.includes("--statements")

/** Milliseconds and calls per statement text, filled while `--statements` is on. */
const statements = new Map<string, { calls: number; ms: number }>()

/** Wrap better-sqlite3's statement methods (one prototype serves every statement) with a timer. */
const timeEveryStatement = () => {
  const prototype = Object.getPrototypeOf(new Database(":memory:").prepare("SELECT 1"))
  for (const method of ["run", "all", "get"]) {
    const original = prototype[method] as (...args: Array<unknown>) => unknown
    prototype[method] = function(this: { readonly source: string }, ...args: Array<unknown>) {
      const start = performance.now()
      try {
        return original.apply(this, args)
      } finally {
        const text = this.source.replace(/\s+/g, " ").trim().slice(0, 100)
        const entry = statements.get(text) ?? { calls: 0, ms: 0 }
        entry.calls += 1
        entry.ms += performance.now() - start
        statements.set(text, entry)
      }
    }
  }
}

/** Print a run, and SQLite's time per statement since the last report. */
const report = (phase: string, run: AppendRun) => {
  console.log(JSON.stringify({ phase, synchronous, ...run }))
  if (!timeStatements) return
  const rows = [...statements.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)
  for (const [text, { calls, ms }] of rows) {
    console.log(`  ${((ms * 1000) / run.appends).toFixed(1).padStart(7)} µs/append ${String(calls).padStart(7)} calls  ${text}`)
  }
  statements.clear()
}

const dir = join(".bench-data", `appends-${process.pid}`)
mkdirSync(dir, { recursive: true })
if (timeStatements) timeEveryStatement()

const program = Effect.gen(function*() {
  statements.clear() // the migrations', run while the store's layer was built
  report("warm-up, 64 appenders", yield* appendPhase("warm", 64, 2_000))
  report("1 appender", yield* appendPhase("one", 1, 1_000))
  report("64 appenders", yield* appendPhase("many", 64, appends))
}).pipe(Effect.provide(Store.layerSqlite({ filename: join(dir, "verbatim.db"), synchronous })))

Effect.runPromise(program)
  .catch((error) => {
    console.error(error)
    process.exitCode = 1
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }))
