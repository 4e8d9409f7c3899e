/**
 * Everything the service keeps is private to the account that runs it: its data directory is
 * 0700 and every file it writes 0600, whatever the umask it was started with. New files are made
 * so by the process's umask (`privateUmask`, set by the `verbatim` command before anything else);
 * its own files from before (an older version, a copy, a restore) are put right at start-up, and
 * one whose mode cannot be changed is named in a warning.
 */
import * as Store from "@verbatim/projections/Store"
import { Effect, Layer } from "effect"
import { chmodSync, existsSync, lstatSync } from "node:fs"
import { join } from "node:path"

/** The umask under which every file the process creates is 0600 and every folder 0700. */
export const privateUmask = 0o077

/** The files the service keeps in its data directory (SQLite's journal files beside the database). */
export const ownFiles = ["verbatim.db", "verbatim.db-wal", "verbatim.db-shm", "api-token", "replay-batches.json"]

/**
 * The data directory and the service's own files in it made private where their modes are wider;
 * the ones that could not be, with why. Nothing else in the folder is touched (it may be shared
 * with other things), and a link is never followed.
 */
export const makePrivate = (dir: string): ReadonlyArray<string> => {
  const failures: Array<string> = []
  const tighten = (path: string, wanted: number) => {
    const stat = lstatSync(path)
    if (stat.isSymbolicLink() || (stat.mode & 0o777 & ~wanted) === 0) return
    try {
      chmodSync(path, stat.mode & 0o777 & wanted)
    } catch (error) {
      failures.push(`${path}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  const own = ownFiles.map((name) => join(dir, name)).filter((path) => existsSync(path))
  // A folder that holds none of the service's files is not yet its own: it is left as it is.
  if (own.length === 0) return failures
  tighten(dir, 0o700)
  for (const path of own) tighten(path, 0o600)
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
