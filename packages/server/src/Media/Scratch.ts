/**
 * A private temporary folder for one reading's files (a video's extracted audio, a PDF's page
 * images), removed with everything in it when the reading ends, however it ends.
 */
import { Effect } from "effect"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Bytes } from "@verbatim/projections/Blobs"

export interface Scratch {
  /** The path of `name` in the folder. */
  readonly path: (name: string) => string
  /** Write the bytes to `name` in the folder; its path. */
  readonly write: (name: string, bytes: Bytes) => Effect.Effect<string>
}

/** A folder made for the scope and removed when it closes. */
export const scratch = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "verbatim-read-"))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
).pipe(Effect.map((dir): Scratch => ({
  path: (name) => join(dir, name),
  write: (name, bytes) =>
    Effect.promise(async () => {
      const path = join(dir, name)
      await writeFile(path, bytes.chunks)
      return path
    })
})))
