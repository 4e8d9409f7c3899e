/** What the SQLite store's files hold on disk, byte for byte: where forgotten words must not be. */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

/** The files of the store `file` names in `dir` (the database, its -wal and -shm) that hold `marker`'s bytes. */
export const storeHolds = (dir: string, marker: string | Uint8Array, file = "verbatim.db"): ReadonlyArray<string> =>
  readdirSync(dir).filter((f) => f.startsWith(file)).filter((f) =>
    existsSync(join(dir, f)) && readFileSync(join(dir, f)).includes(typeof marker === "string" ? Buffer.from(marker, "utf8") : Buffer.from(marker))
  )
