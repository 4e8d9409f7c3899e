/** `verbatim import` (Telegram and WhatsApp exports), `accounting`, `events` and error output, as subprocesses. */
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import * as Store from "@verbatim/projections/Store"
import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { fixture, runCli, tempDir } from "./CliHarness.js"

describe("verbatim import", () => {
  it.scoped("imports a Telegram Desktop export into idle-gap sessions, once", () =>
    Effect.gen(function*() {
      const env = { VERBATIM_DATA_DIR: yield* tempDir("verbatim-cli-") }
      const args = ["import", "telegram-export", fixture("telegram-result.json"), "--user", "telegram:4242", "--idle", "3600", "--quiet"]
      const first = yield* runCli(args, env)
      expect({ code: first.code, stdout: first.stdout.replace(fixture(""), "<fixtures>/") }).toEqual({
        code: 0,
        stdout: "imported <fixtures>/telegram-result.json: 4 new message(s) of 4, 0 already recorded (0 by id, 0 by sender, minute and text), 2 session(s) closed for planning\n" +
          "  telegram:4242:4242:1\n" +
          "  telegram:4242:4242:2\n"
      })
      const again = yield* runCli(args, env)
      expect(again.stdout.replace(fixture(""), "<fixtures>/")).toEqual(
        "imported <fixtures>/telegram-result.json: 0 new message(s) of 4, 4 already recorded (4 by id, 0 by sender, minute and text), 0 session(s) closed for planning\n"
      )
      const accounting = yield* runCli(["accounting", "telegram:4242:4242:1"], env)
      expect(accounting).toEqual({
        code: 0,
        stderr: "",
        stdout: "session telegram:4242:4242:1 (closed), user telegram:4242, 3 message(s)\n" +
          "  seq 1 telegram:telegram-export:4242:11: awaiting a plan\n" +
          "  seq 2 telegram:telegram-export:4242:12: awaiting a plan\n" +
          "  seq 3 telegram:telegram-export:4242:13: awaiting a plan\n"
      })
      const events = yield* runCli(["events", "--after", "0:2"], env)
      expect(events.stdout.split("\n").slice(0, 3).map((line) => line === "" ? line : JSON.parse(line))).toEqual([
        {
          position: 3,
          cursor: "0:3",
          streamId: "session-telegram:4242:4242:1",
          streamVersion: 3,
          recordedAt: "2024-03-01T09:02:00.000Z",
          event: {
            _tag: "MessageReceived",
            message: {
              id: "telegram:telegram-export:4242:12",
              sessionId: "telegram:4242:4242:1",
              seq: 2,
              provider: "telegram",
              providerMessageId: "telegram-export:4242:12",
              sender: "telegram:4242",
              chat: "4242",
              text: "Call me at +1 555 0100 after 6",
              kind: "text",
              forwardedFrom: "Bob Ray",
              replyTo: "telegram-export:4242:11",
              attachments: [],
              links: [],
              mediaGroup: null,
              receivedAt: "2024-03-01T09:02:00.000Z",
              sentAt: "2024-03-01T09:02:00.000Z"
            }
          }
        },
        {
          position: 4,
          cursor: "0:4",
          streamId: "session-telegram:4242:4242:1",
          streamVersion: 4,
          recordedAt: "2024-03-01T09:03:00.000Z",
          event: {
            _tag: "MessageReceived",
            message: {
              id: "telegram:telegram-export:4242:13",
              sessionId: "telegram:4242:4242:1",
              seq: 3,
              provider: "telegram",
              providerMessageId: "telegram-export:4242:13",
              sender: "telegram:4242",
              chat: "4242",
              text: "",
              kind: "media-without-text",
              forwardedFrom: "Zoë Çelik",
              replyTo: null,
              attachments: [],
              links: [],
              mediaGroup: null,
              receivedAt: "2024-03-01T09:03:00.000Z",
              sentAt: "2024-03-01T09:03:00.000Z"
            }
          }
        },
        {
          position: 5,
          cursor: "0:5",
          streamId: "session-telegram:4242:4242:1",
          streamVersion: 5,
          recordedAt: "2024-03-01T10:03:00.000Z",
          event: {
            _tag: "SessionClosed",
            sessionId: "telegram:4242:4242:1",
            reason: "import",
            messageCount: 3,
            closedAt: "2024-03-01T10:03:00.000Z"
          }
        }
      ])
    }))

  it.scoped("imports a WhatsApp export (multi-line text, media placeholders, non-ASCII names); rebuild and --verify over it", () =>
    Effect.gen(function*() {
      const env = { VERBATIM_DATA_DIR: yield* tempDir("verbatim-cli-") }
      const run = yield* runCli(
        ["import", "whatsapp-export", fixture("whatsapp-chat.txt"), "--user", "whatsapp:15550001111", "--idle", "600", "--quiet"],
        env
      )
      expect(run.stdout.replace(fixture(""), "<fixtures>/")).toEqual(
        "imported <fixtures>/whatsapp-chat.txt: 5 new message(s) of 5, 0 already recorded (0 by id, 0 by sender, minute and text), 2 session(s) closed for planning\n" +
          "  whatsapp:15550001111:15550001111:1\n" +
          "  whatsapp:15550001111:15550001111:2\n"
      )
      const events = yield* runCli(["events"], env)
      const messages = events.stdout.trim().split("\n").map((line) => JSON.parse(line).event)
        .filter((e) => e._tag === "MessageReceived")
        .map((e) => [e.message.sessionId, e.message.seq, e.message.kind, e.message.forwardedFrom, e.message.text])
      expect(messages).toEqual([
        ["whatsapp:15550001111:15550001111:1", 1, "text", "José Núñez", "Ana starts at the clinic in March.\nShe wants a quiet desk by the window."],
        ["whatsapp:15550001111:15550001111:1", 2, "media-without-text", "José Núñez", ""],
        ["whatsapp:15550001111:15550001111:1", 3, "text", "Mia Park", "remind me on Friday: Ana's birthday is 4 April"],
        ["whatsapp:15550001111:15550001111:2", 1, "text", "Mia Park", "Tom moved to Lisbon"],
        ["whatsapp:15550001111:15550001111:2", 2, "text", "José Núñez", "Tom's new number ends in 0199"]
      ])
      const withRate = (run: { readonly code: number; readonly stdout: string; readonly stderr: string }) => ({
        ...run,
        stderr: run.stderr.replace(/\(\d+\/s\)/g, "(<rate>)")
      })
      const rebuilt = withRate(yield* runCli(["rebuild"], env))
      expect(rebuilt).toEqual({ code: 0, stderr: "rebuild: 9/9 (<rate>)\n", stdout: "rebuilt every projection from 9 event(s)\n" })
      yield* Effect.flatMap(SqlClient, (sql) => sql`UPDATE sessions SET close_reason = 'command'`).pipe(
        Effect.provide(Store.layerSqlite({ filename: join(env.VERBATIM_DATA_DIR, "verbatim.db") })),
        Effect.scoped
      )
      const verify = withRate(yield* runCli(["rebuild", "--verify"], env))
      expect(verify).toEqual({
        code: 1,
        stdout: "",
        stderr: "rebuild: 9/9 (<rate>)\n" +
          "verbatim: rebuilding from 9 event(s) differs from the live tables in: sessions; run `verbatim rebuild` " +
          "to replace them, and report it: a projection is not deterministic\n"
      })
    }))

  it.scoped("names the file and line of an export it cannot read, and exits 1 having stored nothing", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-cli-")
      const file = join(dir, "chat.txt")
      writeFileSync(file, "31/12/2023, 21:15 - A: fine\n31/02/2023, 21:16 - A: no such day\n")
      const run = yield* runCli(["import", "whatsapp-export", file, "--user", "whatsapp:1"], { VERBATIM_DATA_DIR: dir })
      expect({ ...run, stderr: run.stderr.replace(dir, "<dir>") }).toEqual({
        code: 1,
        stdout: "",
        stderr: "verbatim: <dir>/chat.txt: line 2: \"31/02/2023\" is not a date in dmy order; pass the other date order\n"
      })
      const events = yield* runCli(["events"], { VERBATIM_DATA_DIR: dir })
      expect(events).toEqual({ code: 0, stdout: "", stderr: "" })
    }))

  it.scoped("refuses an idle time that is not a positive number of seconds", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-cli-")
      const file = join(dir, "chat.txt")
      writeFileSync(file, "31/12/2023, 21:15 - A: fine\n")
      const run = yield* runCli(["import", "whatsapp-export", file, "--user", "whatsapp:1", "--idle", "0"], { VERBATIM_DATA_DIR: dir })
      expect(run).toEqual({ code: 1, stdout: "", stderr: "--idle must be a positive number of seconds\n\n" })
    }))

  it.scoped("reads a WhatsApp export's times in the --tz zone, and refuses a zone it does not know", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-cli-")
      const file = join(dir, "chat.txt")
      writeFileSync(file, "15/07/2024, 12:00 - Ana: summer in Lisbon\n")
      const bad = yield* runCli(["import", "whatsapp-export", file, "--user", "whatsapp:1", "--tz", "Europe/Lisbn"], { VERBATIM_DATA_DIR: dir })
      expect(bad).toEqual({ code: 1, stdout: "", stderr: "--tz Europe/Lisbn: not a time zone name like Europe/Lisbon\n\n" })
      const run = yield* runCli(["import", "whatsapp-export", file, "--user", "whatsapp:1", "--tz", "Europe/Lisbon", "--quiet"], {
        VERBATIM_DATA_DIR: dir
      })
      expect(run.code).toEqual(0)
      const events = yield* runCli(["events"], { VERBATIM_DATA_DIR: dir })
      const received = events.stdout.trim().split("\n").map((line) => JSON.parse(line).event).filter((e) => e._tag === "MessageReceived")
      expect(received.map((e) => [e.message.receivedAt, e.message.text])).toEqual([["2024-07-15T11:00:00.000Z", "summer in Lisbon"]])
    }))
})
