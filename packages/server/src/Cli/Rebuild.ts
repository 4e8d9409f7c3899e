/**
 * `verbatim rebuild [--verify]`: rebuild every projection from the log. On PostgreSQL the tables
 * are rebuilt beside the live ones and swapped in, while capture goes on (`OnlineRebuild.ts`); on
 * SQLite they are emptied and replayed holding the write lock. `--verify`
 * rebuilds inside a transaction that is then rolled back (a scratch copy), compares each table's
 * digest with the live one, and exits 1 naming any table that differs; live tables are untouched.
 */
import { Command, Options } from "@effect/cli"
import { EventStore } from "@verbatim/projections/EventStore"
import { rebuildOnline } from "@verbatim/projections/Projections/OnlineRebuild"
import { eventCount, rebuild } from "@verbatim/projections/Projections/Rebuild"
import { verifyRebuild } from "@verbatim/projections/ScratchRebuild"
import { Console, Effect } from "effect"
import { constants, setPriority } from "node:os"
import * as Progress from "../Progress.js"
import { CliError } from "./CliError.js"

/**
 * Run at the lowest CPU priority: a rebuild beside a running service then takes the cores the
 * service leaves idle (measured in `bench:store` at 100,000 events on two cores: capture's p99
 * during a rebuild 2.7 → 2.1 times its idle p99, the rebuild's own rate unchanged, since
 * PostgreSQL's writes bound it).
 */
const yieldTheCpu = Effect.ignore(Effect.try(() => setPriority(constants.priority.PRIORITY_LOW)))

/** Rebuild with a progress report counting towards the log's size (on PostgreSQL, beside the live tables). */
const rebuildWithProgress = (online: boolean) =>
  Effect.gen(function*() {
    if (online) yield* yieldTheCpu
    const progress = yield* Progress.start("rebuild", yield* eventCount)
    return yield* (online ? rebuildOnline : rebuild)({ onPage: progress.advance })
  }).pipe(Effect.scoped)

/** Rebuild in a transaction rolled back at the end; returns the events replayed and the tables that differ. */
export const verify = verifyRebuild(rebuildWithProgress(false))

export const command = Command.make(
  "rebuild",
  { verify: Options.boolean("verify").pipe(Options.withDescription("Rebuild into a scratch copy and compare, changing nothing")) },
  (options) =>
    Effect.gen(function*() {
      if (!options.verify) {
        const online = (yield* EventStore).backend === "pg"
        const events = yield* rebuildWithProgress(online)
        return yield* Console.log(
          online
            ? `rebuilt every projection from ${events} event(s) beside the live tables and swapped them in`
            : `rebuilt every projection from ${events} event(s)`
        )
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
).pipe(Command.withDescription("Rebuild the projections from the event log"))
