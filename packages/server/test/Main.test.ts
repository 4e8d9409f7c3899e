/** The real composition (`ServerLive`) on loopback with nothing configured but a port and a data folder. */
import { HttpServer } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Logger } from "effect"
import { readFileSync, statSync } from "node:fs"
import { createServer as createNetServer } from "node:net"
import { join, resolve } from "node:path"
import { tempDir } from "@verbatim/testkit/TempDir"
import { noImageReaderNotice, noModelNotice, noTranscriberNotice, operatorReadsNotice } from "../src/Announce.js"
import { LogFormat } from "../src/LogFormat.js"
import { ServerLive } from "../src/Main.js"
import { clientAt } from "./apiClient.js"

/** A port nothing listens on right now (`PORT` must be 1–65535, so 0 cannot ask the system). */
const freePort = Effect.async<number>((resume) => {
  const probe = createNetServer()
  probe.listen(0, "127.0.0.1", () => {
    const address = probe.address()
    probe.close(() => resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0)))
  })
})

/** A logger keeping each line's message (start-up is logged, not printed). */
const recordingLogger = (lines: Array<string>) =>
  Logger.replace(
    Logger.defaultLogger,
    Logger.make(({ message }) => void lines.push(Array.isArray(message) ? message.map(String).join(" ") : String(message)))
  )

describe("Main", () => {
  it.live("starts on SQLite in the data folder, generates and keeps an API token, and says what is not configured", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-main-")
      const printed: Array<string> = []
      const port = yield* freePort
      // No image reader either (Tesseract, when installed, would otherwise read photos without a key).
      const provider = ConfigProvider.fromMap(new Map([["PORT", String(port)], ["VERBATIM_DATA_DIR", dir], ["VERBATIM_VISION", "none"]]))
      const reply = yield* Effect.gen(function*() {
        const server = yield* HttpServer.HttpServer
        const port = server.address._tag === "TcpAddress" ? server.address.port : 0
        const token = readFileSync(join(dir, "api-token"), "utf8").trim()
        // `/readyz` raw: its status is the point.
        const ready = yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/readyz`))
        const api = yield* clientAt(`http://127.0.0.1:${port}`, token)
        return { port, token, ready: ready.status, people: yield* api.api.people({ urlParams: {} }) }
      }).pipe(
        Effect.provide(ServerLive),
        Effect.provideService(LogFormat, { format: "json", started: Effect.void }),
        Effect.withConfigProvider(provider),
        Effect.provide(recordingLogger(printed))
      )
      expect(reply.ready).toBe(200)
      expect(reply.people).toEqual({ items: [], nextCursor: null })
      expect(statSync(join(dir, "api-token")).mode & 0o777).toBe(0o600)
      expect(printed).toEqual([
        "event store: SQLite",
        `verbatim listening on http://127.0.0.1:${reply.port}`,
        `data: ${resolve(dir, "verbatim.db")}`,
        `web pages: http://127.0.0.1:${reply.port}/ (sign in with the API token to read, search, and capture messages at /compose; /web in a chat sends a user their link once VERBATIM_PUBLIC_URL is set)`,
        operatorReadsNotice.none,
        `API token (generated, kept in ${join(dir, "api-token")}): ${reply.token}`,
        "TELEGRAM_WEBHOOK_SECRET is not set: Telegram webhooks are refused (401)",
        "WHATSAPP_VERIFY_TOKEN is not set: WhatsApp webhook verification is refused",
        "WHATSAPP_APP_SECRET is not set: WhatsApp webhooks are refused (401)",
        "TELEGRAM_BOT_TOKEN is not set: replies to Telegram are held",
        "WHATSAPP_ACCESS_TOKEN or WHATSAPP_PHONE_NUMBER_ID is not set: replies to WhatsApp are held",
        "VERBATIM_ALLOWED_SENDERS is empty: no sender's messages are captured",
        noModelNotice,
        noTranscriberNotice,
        noImageReaderNotice
      ])
    }).pipe(Effect.scoped))
})
