/** Runs `verbatim` as a subprocess (tsx on bin.ts) against a temporary store, and normalises its output. */
import { Config, Effect } from "effect"
import { execFile } from "node:child_process"
import { chmodSync, statSync } from "node:fs"
import { createServer } from "node:net"
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

export interface RunOptions {
  /**
   * Run as an unprivileged user (nobody, 65534) when the tests run as root, so that file modes
   * are honoured as they are for an operator; when not root, the run is already unprivileged.
   */
  readonly unprivileged?: boolean
}

/** Whether this process is root, which ignores file modes. */
export const isRoot: boolean = process.getuid?.() === 0

/** The command line for one run: through `setpriv` to nobody when asked for and root. */
const commandLine = (args: ReadonlyArray<string>, options: RunOptions): readonly [string, ReadonlyArray<string>] =>
  options.unprivileged === true && isRoot
    ? ["setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--", process.execPath, tsx, bin, ...args]]
    : [tsx, [bin, ...args]]

/**
 * `path` with `mode` for the rest of the scope, then its mode as it was (so the temporary folder
 * around it can be removed). A folder an unprivileged run works in needs `0o777` while root owns it.
 */
export const withMode = (path: string, mode: number) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const before = statSync(path).mode & 0o7777
      chmodSync(path, mode)
      return before
    }),
    (before) => Effect.sync(() => chmodSync(path, before))
  )

/** Run the CLI with only `env` (plus PATH) as its environment. */
export const runCli = (args: ReadonlyArray<string>, env: Record<string, string>, options: RunOptions = {}) =>
  Effect.gen(function*() {
    const path = yield* Config.string("PATH").pipe(Config.withDefault("/usr/bin:/bin"))
    const [file, argv] = commandLine(args, options)
    return yield* Effect.async<CliRun>((resume) => {
      execFile(file, argv, { cwd: root, env: { PATH: path, ...env } }, (error, stdout, stderr) => {
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

/** A port nothing listens on right now (PORT must be 1–65535, so the server cannot take 0). */
export const freePort = Effect.async<number>((resume) => {
  const server = createServer().listen(0, "127.0.0.1", () => {
    const address = server.address()
    server.close(() => resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0)))
  })
})
