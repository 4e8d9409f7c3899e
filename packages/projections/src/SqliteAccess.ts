/**
 * Whether this process may open a SQLite store, said in one line when not: the path, what is
 * wrong, and what to do. Checked before opening, because SQLite's own report (a `SqliteError`
 * thrown while the client connects) names neither the file nor the remedy.
 */
import { accessSync, constants, existsSync } from "node:fs"
import { basename, dirname } from "node:path"

const remedy = "make it writable by this user, or point VERBATIM_DATA_DIR at a writable directory"

const codeOf = (cause: unknown): string =>
  typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : ""

const reasonOf = (cause: unknown): string => {
  switch (codeOf(cause)) {
    case "EACCES":
    case "EPERM":
      return "not writable by this user"
    case "EROFS":
      return "read-only file system"
    default:
      return cause instanceof Error ? cause.message : String(cause)
  }
}

/** Why `path` cannot be written by this process, or undefined when it can. */
const unwritable = (path: string): string | undefined => {
  try {
    accessSync(path, constants.W_OK)
    return undefined
  } catch (error) {
    return reasonOf(error)
  }
}

/** A permission failure (not a path in the way): the data directory cannot be created, said in one line. */
export const cannotCreate = (dataDir: string, cause: unknown): string | undefined =>
  ["EACCES", "EPERM", "EROFS"].includes(codeOf(cause))
    ? `cannot create the data directory ${dataDir} (${codeOf(cause) === "EROFS" ? "read-only file system" : "permission denied"}); ` +
      "create it writable by this user, " +
      "or point VERBATIM_DATA_DIR at a writable directory"
    : undefined

/**
 * Why a writable open of `filename` would fail, or undefined when it would not. SQLite in WAL
 * mode writes `-wal` and `-shm` files beside the database, so the directory and those files
 * must be writable too: a read-only open of a read-only file leaves them read-only.
 */
export const cannotWrite = (filename: string): string | undefined => {
  const dir = dirname(filename)
  const inDir = unwritable(dir)
  if (inDir !== undefined) return `cannot write in the data directory ${dir} (${inDir}); ${remedy}`
  const own = existsSync(filename) ? unwritable(filename) : undefined
  if (own !== undefined) return `cannot write the database ${filename} (${own === "not writable by this user" ? "read-only file" : own}); ${remedy}`
  for (const side of [`${filename}-wal`, `${filename}-shm`]) {
    if (existsSync(side) && unwritable(side) !== undefined) {
      return `cannot write ${side}, the database's ${side.slice(filename.length + 1)} file (read-only file); ` +
        `make it writable by this user as ${basename(filename)} is, or point VERBATIM_DATA_DIR at a writable directory`
    }
  }
  return undefined
}

/** SQLite's codes for a file it may not open or write, as opposed to a database that is damaged. */
export const isAccessFailure = (cause: unknown): boolean => /^SQLITE_(READONLY|CANTOPEN|PERM)/.test(codeOf(cause))

/** SQLite refused to open or write `filename`: one line for a command that writes or one that only reads. */
export const openFailure = (filename: string, cause: unknown, access: "read" | "write"): string => {
  const reason = cause instanceof Error ? cause.message : String(cause)
  if (access === "write") return `cannot write the database ${filename} (${reason}); ${remedy}`
  if (codeOf(cause) === "SQLITE_READONLY_DIRECTORY") {
    return `cannot read the database ${filename} (its directory is read-only, and SQLite needs to create ` +
      `${basename(filename)}-shm beside it); make ${dirname(filename)} writable by this user, or copy the data ` +
      "directory somewhere writable and point VERBATIM_DATA_DIR at the copy"
  }
  return `cannot read the database ${filename} (${reason}); make it readable by this user, or point VERBATIM_DATA_DIR at the right directory`
}

/** A read-only open found the schema behind this version's, and `refusal` (from `cannotWrite`) says why it cannot be migrated. */
export const schemaBehind = (filename: string, applied: number, latest: number, refusal: string): string =>
  `cannot read the database ${filename} without migrating it (schema at migration ${applied} of ${latest}), ` +
  `and migrating needs a writable open, but ${refusal}`
