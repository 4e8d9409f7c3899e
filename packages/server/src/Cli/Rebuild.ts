/**
 * `verbatim rebuild [--verify]`: drop and rebuild every projection from the log. `--verify`
 * rebuilds inside a transaction that is then rolled back (a scratch copy), compares each table's
 * digest with the live one, and exits 1 naming any table that differs; live tables are untouched.
 */
import { Command, Options } from "@effect/cli"
import { eventCount, rebuild } from "@verbatim/projections/Projections/Rebuild"
import { verifyRebuild } from "@verbatim/projections/ScratchRebuild"
import { Console, Effect } from "effect"
import * as Progress from "../Progress.js"
import { CliError } from "./CliError.js"

/** Rebuild with a progress report counting towards the log's size. */
const rebuildWithProgress = Effect.gen(function*() {
  const progress = yield* Progress.start("rebuild", yield* eventCount)
  return yield* rebuild({ onPage: progress.advance })
}).pipe(Effect.scoped)

/** Rebuild in a transaction rolled back at the end; returns the events replayed and the tables that differ. */
export const verify = verifyRebuild(rebuildWithProgress)

export const command = Command.make(
  "rebuild",
  { verify: Options.boolean("verify").pipe(Options.withDescription("Rebuild into a scratch copy and compare, changing nothing")) },
  (options) =>
    Effect.gen(function*() {
      if (!options.verify) {
        const events = yield* rebuildWithProgress
        return yield* Console.log(`rebuilt every projection from ${events} event(s)`)
      }
      const result = yield* verify
      if (result.differing.length === 0) {
        return yield* Console.log(`verified: rebuilding from ${result.events} event(s) reproduces every table`)
      }
      return yield* new CliError({
        message: `rebuilding from ${result.events} event(s) differs from the live tables in: ${result.differing.join(", ")}; ` +
          `run \`verbatim rebuild\` to replace them, and report it: a projection is not deterministic`
      })
    })
).pipe(Command.withDescription("Drop and rebuild the projections from the event log"))
