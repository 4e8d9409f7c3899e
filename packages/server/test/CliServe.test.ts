/** `verbatim serve` as a subprocess with nothing configured: what it says at start, and that it answers. */
import { describe, expect, it } from "@effect/vitest"
import { Config, Data, Effect } from "effect"
import { spawn } from "node:child_process"
import { createServer, type Server } from "node:net"
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort, tempDir } from "./CliHarness.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))

class ServeFailed extends Data.TaggedError("ServeFailed")<{ readonly message: string }> {}

/** What the server wrote: each stdout line's message, and stderr whole. */
interface Said {
  readonly messages: ReadonlyArray<string>
  readonly stderr: string
}

/** A line of output as the JSON logger writes it; anything else fails the run. */
const parsed = (line: string): { readonly message: unknown } | ServeFailed => {
  try {
    const value: unknown = JSON.parse(line)
    return typeof value === "object" && value !== null && "message" in value
      ? value as { readonly message: unknown }
      : new ServeFailed({ message: `not a log object: ${line}` })
  } catch {
    return new ServeFailed({ message: `not JSON: ${line}` })
  }
}

/**
 * Start the server, collect stdout until it has logged `lines` lines (every line must be one JSON
 * object), and stop it (by its pid) with the scope.
 */
const serve = (env: Record<string, string>, lines: number, umask = "022") =>
  Effect.gen(function*() {
    const path = yield* Config.string("PATH").pipe(Config.withDefault("/usr/bin:/bin"))
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        // Started under the umask an operator's shell usually has, which lets anyone read new files.
        spawn("/bin/sh", ["-c", `umask ${umask} && exec "$0" "$@"`, join(root, "node_modules/.bin/tsx"), join(root, "packages/server/src/bin.ts"), "serve"], {
          cwd: root,
          env: { PATH: path, ...env }
        })
      ),
      (child) => Effect.sync(() => child.kill("SIGTERM"))
    )
    return yield* Effect.async<Said, ServeFailed>((resume) => {
      let out = ""
      let err = ""
      child.stderr.on("data", (chunk: Buffer) => {
        err += chunk.toString("utf8")
      })
      child.on("exit", (code) => resume(Effect.fail(new ServeFailed({ message: `serve exited with ${code}: ${err}` }))))
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8")
        const complete = out.split("\n").slice(0, -1).map(parsed)
        const bad = complete.find((line) => line instanceof ServeFailed)
        if (bad !== undefined) return resume(Effect.fail(bad))
        const messages = complete.flatMap((line) => line instanceof ServeFailed ? [] : [String(line.message)])
        if (messages.length >= lines) resume(Effect.succeed({ messages: messages.slice(0, lines), stderr: err }))
      })
    }).pipe(Effect.timeoutFail({ duration: "60 seconds", onTimeout: () => new ServeFailed({ message: "the server said too little in 60 s" }) }))
  })

describe("verbatim serve", () => {
  it.scoped("starts with no configuration, says where it listens, where its data is, what the operator reads, what is not configured and what reads photos, as JSON lines", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-serve-")
      const port = yield* freePort
      const said = yield* serve({ VERBATIM_DATA_DIR: dir, PORT: String(port) }, 15)
      expect(said.stderr).toEqual("")
      const general = (line: string) =>
        line.replace(dir, "<dir>").replace(`:${port}`, ":<port>").replace(/: \S{43}$/, ": <token>").replace(/tesseract \d+\.\d+\.\d+/, "tesseract <version>")
      expect(said.messages.map(general))
        .toEqual([
          "event store: SQLite",
          "verbatim listening on http://127.0.0.1:<port>",
          "data: <dir>/verbatim.db",
          "web pages: http://127.0.0.1:<port>/ (sign in with the API token to read, search, and capture messages at /compose; /web in a chat sends a user their link once VERBATIM_PUBLIC_URL is set)",
          "operator reads: none (VERBATIM_OPERATOR_READS): the API token and the operator's sign-in see other users' counts and accounting, never their text; set audited to read it with each read recorded where its user sees it, or all",
          "API token (generated, kept in <dir>/api-token): <token>",
          "TELEGRAM_WEBHOOK_SECRET is not set: Telegram webhooks are refused (401)",
          "WHATSAPP_VERIFY_TOKEN is not set: WhatsApp webhook verification is refused",
          "WHATSAPP_APP_SECRET is not set: WhatsApp webhooks are refused (401)",
          "TELEGRAM_BOT_TOKEN is not set: replies to Telegram are held",
          "WHATSAPP_ACCESS_TOKEN or WHATSAPP_PHONE_NUMBER_ID is not set: replies to WhatsApp are held",
          "VERBATIM_ALLOWED_SENDERS is empty: no sender's messages are captured",
          "no model key: messages are captured and held; planning resumes once ANTHROPIC_API_KEY is set",
          "no transcription server: voice notes, audio and videos are fetched, stored and filed as untranscribed; set VERBATIM_TRANSCRIBE_URL to transcribe them",
          // Without an Anthropic key, photos are read on this machine by Tesseract (which .ci/run installs).
          "photos read with tesseract <version> (eng)"
        ])
      const health = yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.text()))
      expect(health).toEqual("{\"status\":\"ok\"}")
    }))

  it.scoped("under umask 022 its data directory is 0700 and its files 0600, those from before included; others' files are left be", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-serve-")
      chmodSync(dir, 0o755)
      writeFileSync(join(dir, "api-token"), "an-older-token-for-this-store-kept-from-before", { mode: 0o644 })
      writeFileSync(join(dir, "run.sh"), "#!/bin/sh", { mode: 0o755 })
      mkdirSync(join(dir, "exports"), { mode: 0o755 })
      const port = yield* freePort
      yield* serve({ VERBATIM_DATA_DIR: dir, PORT: String(port) }, 14)
      // A write, so the database's journal files exist too.
      expect(yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status))).toBe(200)
      const modes = Object.fromEntries(
        ["", "verbatim.db", "verbatim.db-wal", "verbatim.db-shm", "api-token", "run.sh", "exports"]
          .filter((name) => existsSync(join(dir, name)))
          .map((name) => [name === "" ? "." : name, (statSync(join(dir, name)).mode & 0o777).toString(8)])
      )
      expect(modes).toEqual({
        ".": "700",
        "verbatim.db": "600",
        "verbatim.db-wal": "600",
        "verbatim.db-shm": "600",
        "api-token": "600",
        "run.sh": "755",
        exports: "755"
      })
    }))

  it.scoped("on a port already taken it says which and why, and exits with status 1", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-serve-")
      const taken = yield* Effect.acquireRelease(
        Effect.async<Server>((resume) => {
          const server = createServer().listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
        }),
        (server) =>
          Effect.async<void>((resume) => {
            server.close(() => resume(Effect.void))
          })
      )
      const address = taken.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      const failed = yield* Effect.flip(serve({ VERBATIM_DATA_DIR: dir, PORT: String(port) }, 100))
      expect(failed.message).toEqual(
        `serve exited with 1: verbatim: cannot listen: listen EADDRINUSE: address already in use 127.0.0.1:${port}; set PORT or HOST to listen elsewhere\n`
      )
    }))
})
