/** `verbatim serve` on a terminal (a pseudo-terminal from util-linux `script`): one readable block, then text logs. */
import { describe, expect, it } from "@effect/vitest"
import { Config, Data, Effect } from "effect"
import { spawn } from "node:child_process"
import { createServer } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort, tempDir } from "./CliHarness.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))

class TerminalFailed extends Data.TaggedError("TerminalFailed")<{ readonly message: string }> {}

/**
 * Start `verbatim serve ARGS` with its stdout on a pseudo-terminal; `waitFor(pattern)` is all it has
 * written once that holds `pattern`, with the terminal's line ends made plain. The scope stops it
 * (its process group).
 */
const onTerminal = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  Effect.gen(function*() {
    const path = yield* Config.string("PATH").pipe(Config.withDefault("/usr/bin:/bin"))
    const command = [join(root, "node_modules/.bin/tsx"), join(root, "packages/server/src/bin.ts"), "serve", ...args].map((a) => `'${a}'`).join(" ")
    const child = yield* Effect.acquireRelease(
      Effect.sync(() => spawn("script", ["-qfec", command, "/dev/null"], { cwd: root, env: { PATH: path, ...env }, detached: true })),
      (child) => Effect.sync(() => child.pid !== undefined && child.exitCode === null && process.kill(-child.pid, "SIGTERM"))
    )
    let out = ""
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8").replace(/\r\n/g, "\n")
    })
    const waitFor = (pattern: RegExp) =>
      Effect.async<string, TerminalFailed>((resume) => {
        const check = () => {
          if (!pattern.test(out)) return
          child.stdout.off("data", check)
          resume(Effect.succeed(out))
        }
        child.on("exit", (code) => resume(Effect.fail(new TerminalFailed({ message: `serve exited with ${code}: ${out}` }))))
        child.stdout.on("data", check)
        check()
      }).pipe(Effect.timeoutFail({ duration: "60 seconds", onTimeout: () => new TerminalFailed({ message: `serve said too little in 60 s: ${out}` }) }))
    return { waitFor }
  })

describe("verbatim serve on a terminal", () => {
  it.scoped("prints where to open, the sign-in token and what is not configured as one block, then logs text lines", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-terminal-")
      const port = yield* freePort
      const env = { VERBATIM_DATA_DIR: dir, PORT: String(port) }
      const serve = yield* onTerminal([], env)
      yield* serve.waitFor(/Logs follow.*\n/)
      // A webhook without its secret is refused, and logged.
      const status = yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/webhooks/telegram`, { method: "POST", body: "{}" }).then((r) => r.status))
      expect(status).toBe(401)
      const said = yield* serve.waitFor(/WARN webhook .*\n/)
      const general = (text: string) =>
        text.replaceAll(dir, "<dir>").replaceAll(`:${port}`, ":<port>").replace(/Sign in {2}\S{43}\n/, "Sign in  <token>\n")
          .replace(/tesseract \d+\.\d+\.\d+/, "tesseract <version>").replace(/^\d\d:\d\d:\d\d /gm, "<time> ").replace(/ ms=\d+/, " ms=<ms>")
      expect(general(said)).toEqual(
        [
          "Verbatim is running.",
          "",
          "  Open     http://127.0.0.1:<port>/",
          "  Sign in  <token>",
          "           (generated, kept in <dir>/api-token)",
          "  Data     <dir>/verbatim.db",
          "  Reads    none: the operator sees other users' counts and accounting, never their text",
          "           (VERBATIM_OPERATOR_READS)",
          // Without an Anthropic key, photos are read on this machine by Tesseract (which .ci/run installs).
          "  Media    photos read with tesseract <version> (eng)",
          "",
          "Not configured:",
          "  - TELEGRAM_WEBHOOK_SECRET is not set: Telegram webhooks are refused (401)",
          "  - WHATSAPP_VERIFY_TOKEN is not set: WhatsApp webhook verification is refused",
          "  - WHATSAPP_APP_SECRET is not set: WhatsApp webhooks are refused (401)",
          "  - TELEGRAM_BOT_TOKEN is not set: replies to Telegram are held",
          "  - WHATSAPP_ACCESS_TOKEN or WHATSAPP_PHONE_NUMBER_ID is not set: replies to WhatsApp are held",
          "  - VERBATIM_ALLOWED_SENDERS is empty: no sender's messages are captured",
          "  - no model key: messages are captured and held; planning resumes once ANTHROPIC_API_KEY is set",
          "  - no transcription server: voice notes, audio and videos are fetched, stored and filed as",
          "    untranscribed; set VERBATIM_TRANSCRIBE_URL to transcribe them",
          "  - VERBATIM_PUBLIC_URL is not set: /web in a chat cannot send a user their link",
          "",
          "Logs follow (Ctrl-C stops the server).",
          // What was logged while the server started, held until the block was out.
          "<time> INFO event store: SQLite readOnly=false filename=<dir>/verbatim.db synchronous=FULL",
          "<time> WARN refused reason=\"telegram webhook refused: secret token not-configured\" provider=telegram refused=webhook",
          "<time> WARN webhook provider=telegram outcome=unauthorized ms=<ms>",
          ""
        ].join("\n")
      )
    }), 90_000)

  it.scoped("a start that fails still writes what it held back, then why it failed", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-terminal-")
      // The port is taken: the server cannot listen, so no start block is printed.
      const port = yield* Effect.acquireRelease(
        Effect.async<{ readonly port: number; readonly close: () => void }>((resume) => {
          const taken = createServer().listen(0, "127.0.0.1", () => {
            const address = taken.address()
            resume(Effect.succeed({ port: typeof address === "object" && address !== null ? address.port : 0, close: () => taken.close() }))
          })
        }),
        (taken) => Effect.sync(taken.close)
      )
      const failed = yield* Effect.flip((yield* onTerminal([], { VERBATIM_DATA_DIR: dir, PORT: String(port.port) })).waitFor(/Verbatim is running/))
      const said = failed.message.replace(/^serve exited with \d+: /, "").split("\n").map((line) => line.replace(/^\d\d:\d\d:\d\d /, "<time> "))
      expect(said.filter((line) => line !== "")).toEqual([
        `<time> INFO event store: SQLite readOnly=false filename=${dir}/verbatim.db synchronous=FULL`,
        `verbatim: cannot listen: listen EADDRINUSE: address already in use 127.0.0.1:${port.port}; set PORT or HOST to listen elsewhere`
      ])
    }), 90_000)

  it.scoped("with --log-format json, or VERBATIM_LOG_FORMAT=json, logs JSON lines there too", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-terminal-")
      for (const [args, env] of [[["--log-format", "json"], {}], [[], { VERBATIM_LOG_FORMAT: "json" }]] as const) {
        const port = yield* freePort
        const said = yield* Effect.scoped(Effect.flatMap(
          onTerminal(args, { VERBATIM_DATA_DIR: dir, PORT: String(port), ...env }),
          (serve) => serve.waitFor(/no transcription server.*\n/)
        ))
        const messages = said.trimEnd().split("\n").map((line) => (JSON.parse(line) as { readonly message: string }).message)
        expect(messages.slice(0, 3)).toEqual(["event store: SQLite", `verbatim listening on http://127.0.0.1:${port}`, `data: ${dir}/verbatim.db`])
      }
    }), 90_000)
})
