/**
 * Everything the service keeps is private to the account that runs it: its data directory is
 * 0700 and every file in it 0600, whatever the umask it was started with. New files are made so
 * by the process's umask (`privateUmask`, set by the `verbatim` command before anything else);
 * files from before (an older version, a copy, a restore) are put right at start-up, and a file
 * whose mode cannot be changed is named in a warning.
 */
import * as Store from "@verbatim/projections/Store"
import { Effect, Layer } from "effect"
import { chmodSync, existsSync, lstatSync, readdirSync } from "node:fs"
import { join } from "node:path"

/** The umask under which every file the process creates is 0600 and every folder 0700. */
export const privateUmask = 0o077

/** Each path under `dir` (itself included) whose mode is wider than private, made private; the ones that could not be, with why. */
export const makePrivate = (dir: string): ReadonlyArray<string> => {
  const failures: Array<string> = []
  const visit = (path: string) => {
    // Never through a link: it could point at anything on the machine.
    const stat = lstatSync(path)
    if (stat.isSymbolicLink()) return
    const wanted = stat.isDirectory() ? 0o700 : 0o600
    if ((stat.mode & 0o777 & ~wanted) !== 0) {
      try {
        chmodSync(path, (stat.mode & 0o777) & wanted)
      } catch (error) {
        failures.push(`${path}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry))
  }
  if (existsSync(dir)) visit(dir)
  return failures
}

/** At start-up: the data directory made private, and a warning for each path that could not be. */
export const layer = Layer.effectDiscard(
  Effect.gen(function*() {
    const { dataDir } = yield* Store.config
    const failures = yield* Effect.try(() => makePrivate(dataDir)).pipe(
      Effect.catchAll((error) => Effect.succeed([`${dataDir}: ${error.error instanceof Error ? error.error.message : String(error.error)}`]))
    )
    yield* Effect.forEach(failures, (failure) => Effect.logWarning(`cannot make private (others on this machine may read it): ${failure}`), { discard: true })
  })
)
