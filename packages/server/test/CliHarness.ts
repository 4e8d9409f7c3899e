/** Runs `verbatim` as a subprocess (tsx on bin.ts) against a temporary store, and normalises its output. */
import { Config, Effect } from "effect"
import { execFile } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const tsx = join(root, "node_modules/.bin/tsx")
const bin = join(root, "packages/server/src/bin.ts")

/** A fixture file's absolute path. */
export const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))

/** What one run printed and how it exited. */
export interface CliRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

export { tempDir } from "@verbatim/testkit/TempDir"

/** Run the CLI with only `env` (plus PATH) as its environment. */
export const runCli = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  Effect.gen(function*() {
    const path = yield* Config.string("PATH").pipe(Config.withDefault("/usr/bin:/bin"))
    return yield* Effect.async<CliRun>((resume) => {
      execFile(tsx, [bin, ...args], { cwd: root, env: { PATH: path, ...env } }, (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
        resume(Effect.succeed({ code, stdout, stderr }))
      })
    })
  })

/** Times and generated ids replaced by placeholders; nothing else. */
export const normalise = (text: string): string =>
  text
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>")
    .replace(/\b(note|q|plan|person|reply)_[0-9a-f-]{36}\b/g, "$1_<id>")
