/** `verbatim import`: one summary reply for the whole import (none with --quiet), an hour's idle by default, unstorable messages refused by name. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { runCli, tempDir } from "./CliHarness.js"

/** A Telegram export of these texts, at these minutes past 09:00 on 1 March 2024. */
const telegramExport = (messages: ReadonlyArray<readonly [minute: number, text: string]>) =>
  JSON.stringify({
    name: "Ana",
    type: "personal_chat",
    id: 7,
    messages: messages.map(([minute, text], index) => ({
      id: index + 1,
      type: "message",
      date: "2024-03-01T09:00:00",
      date_unixtime: String(1709283600 + minute * 60),
      from: "Ana",
      text
    }))
  })

/** A run with the temp dir named `<dir>` and the progress lines (stderr's `import FILE: n/N`) left out. */
const shown = (run: { readonly code: number; readonly stdout: string; readonly stderr: string }, dir: string) => ({
  code: run.code,
  stdout: run.stdout.replaceAll(dir, "<dir>"),
  stderr: run.stderr.replaceAll(dir, "<dir>").split("\n").filter((line) => !line.startsWith("import <dir>")).join("\n")
})

const eventsOf = (stdout: string) => stdout.trim().split("\n").map((line) => JSON.parse(line).event)

describe("verbatim import's replies and sessions", () => {
  it.scoped("keeps a conversation with pauses of minutes in one session and queues one summary reply, once", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-cli-")
      const file = join(dir, "result.json")
      writeFileSync(file, telegramExport([[0, "Ana starts in March"], [20, "she likes jazz"], [70, "Tom moved"], [200, "Bob called"]]))
      const args = ["import", "telegram-export", file, "--user", "telegram:7"]
      const first = yield* runCli(args, { VERBATIM_DATA_DIR: dir })
      expect(shown(first, dir)).toEqual({
        code: 0,
        stderr: "",
        stdout: "imported <dir>/result.json: 4 new message(s) of 4, 0 already recorded (0 by id, 0 by sender, minute and text), 2 session(s) closed for planning, " +
          "one summary reply queued\n" +
          "  telegram:7:7:1\n" +
          "  telegram:7:7:2\n"
      })
      const again = yield* runCli(args, { VERBATIM_DATA_DIR: dir })
      expect(again.stdout.replace(dir, "<dir>")).toEqual(
        "imported <dir>/result.json: 0 new message(s) of 4, 4 already recorded (4 by id, 0 by sender, minute and text), 0 session(s) closed for planning\n"
      )
      const replies = eventsOf((yield* runCli(["events"], { VERBATIM_DATA_DIR: dir })).stdout).filter((e) => e._tag === "ReplyQueued")
      expect(replies).toEqual([{
        _tag: "ReplyQueued",
        replyId: "reply_import_telegram:7:7:1",
        user: "telegram:7",
        provider: "telegram",
        chat: "7",
        text: "Imported 4 messages into 2 conversations. Their notes are filed as they are planned, without a reply each; " +
          "questions about them are listed on /api/questions.",
        buttons: [],
        questionId: null
      }])
    }))

  it.scoped("queues no reply with --quiet", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-cli-")
      const file = join(dir, "result.json")
      writeFileSync(file, telegramExport([[0, "Ana starts in March"]]))
      const run = yield* runCli(["import", "telegram-export", file, "--user", "telegram:7", "--quiet"], { VERBATIM_DATA_DIR: dir })
      expect(run.stdout.replace(dir, "<dir>")).toEqual(
        "imported <dir>/result.json: 1 new message(s) of 1, 0 already recorded (0 by id, 0 by sender, minute and text), 1 session(s) closed for planning\n  telegram:7:7:1\n"
      )
      const tags = eventsOf((yield* runCli(["events"], { VERBATIM_DATA_DIR: dir })).stdout).map((e) => e._tag)
      expect(tags).toEqual(["SessionOpened", "MessageReceived", "SessionClosed"])
    }))

  it.scoped("refuses a message a store cannot keep by name, records the rest, and exits 1", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-cli-")
      const file = join(dir, "result.json")
      writeFileSync(file, telegramExport([[0, "Ana starts in March"], [1, "a\u0000b"], [2, "half \ud83d emoji"], [3, "Tom moved"]]))
      const run = yield* runCli(["import", "telegram-export", file, "--user", "telegram:7", "--quiet"], { VERBATIM_DATA_DIR: dir })
      expect(shown(run, dir)).toEqual({
        code: 1,
        stdout: "imported <dir>/result.json: 2 new message(s) of 4, 0 already recorded (0 by id, 0 by sender, minute and text), 1 session(s) closed for planning\n" +
          "  telegram:7:7:1\n",
        stderr: "verbatim: <dir>/result.json: 2 message(s) refused, the rest recorded: " +
          "message 2 (Ana, 2024-03-01T09:01:00.000Z): text of telegram message telegram-export:7:2 contains U+0000 (NUL), which is not text; " +
          "message 3 (Ana, 2024-03-01T09:02:00.000Z): text of telegram message telegram-export:7:3 contains a lone surrogate U+D83D, " +
          "which is not text; remove the character from the export and import it again\n"
      })
      const texts = eventsOf((yield* runCli(["events"], { VERBATIM_DATA_DIR: dir })).stdout)
        .filter((e) => e._tag === "MessageReceived").map((e) => e.message.text)
      expect(texts).toEqual(["Ana starts in March", "Tom moved"])
    }))
})
