/**
 * The slow-flush preload for the load benchmarks: ../shared/tools/slowfsync.c, compiled once
 * into the bench's scratch directory, makes every fsync/fdatasync first sleep a set time, so
 * both sides of a comparison run on a disk whose flush costs what a cloud volume's does.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, statSync } from "node:fs"
import { join, resolve } from "node:path"

const source = resolve("../shared/tools/slowfsync.c")

/** The environment that preloads the library (built with the line in its header) into a server. */
export const slowFsyncEnv = (dir: string, microseconds: number): Record<string, string> => {
  if (!existsSync(source)) throw new Error(`${source} is missing: the slow-flush mode needs it`)
  mkdirSync(dir, { recursive: true })
  const library = join(dir, "slowfsync.so")
  if (!existsSync(library) || statSync(library).mtimeMs < statSync(source).mtimeMs) {
    execFileSync("cc", ["-shared", "-fPIC", "-O2", "-o", library, source, "-ldl"], { stdio: "inherit" })
  }
  return { LD_PRELOAD: library, SLOWFSYNC_US: String(microseconds) }
}
