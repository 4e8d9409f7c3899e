/** `verbatim import --dry-run` and `verbatim reconcile`, as subprocesses: what an export adds, and the gaps alone. */
import { describe, expect, it } from "@effect/vitest"
import { NewMessage } from "@verbatim/domain/Inbound/Inbound"
import * as Store from "@verbatim/projections/Store"
import { botChatExport as botChat } from "@verbatim/testkit/BotChatExport"
import { DateTime, Effect, Layer } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import * as Ingest from "../src/Inbox/Ingest.js"
import { TimeZones } from "../src/TimeZones.js"
import { runCli, tempDir } from "./CliHarness.js"

/** A data dir whose log has Zoë's forward of Bob's line, captured live, and her chat with the bot exported beside it. */
const setUp = Effect.gen(function*() {
  const dir = yield* tempDir("verbatim-reconcile-")
  const file = join(dir, "result.json")
  writeFileSync(file, botChat)
  yield* Ingest.capture(NewMessage.make({
    provider: "telegram", providerMessageId: "4242:5001", senderId: "4242", chatId: "4242", senderName: "Zoë", text: "Call me after 6",
    kind: "text", forwardedFrom: "Bob Ray", replyTo: null, attachments: [], links: [], mediaGroup: null,
    sentAt: DateTime.unsafeMake("2024-03-01T09:01:00Z")
  })).pipe(
    Effect.provide(Layer.merge(Store.layerSqlite({ filename: join(dir, "verbatim.db") }), TimeZones.layerZone("UTC"))),
    Effect.scoped
  )
  return { env: { VERBATIM_DATA_DIR: dir, TELEGRAM_BOT_TOKEN: "777:secret" }, file, dir }
})

describe("verbatim import --dry-run and verbatim reconcile", () => {
  it.scoped("list what an export of the chat with the bot would add and what the log has, changing nothing", () =>
    Effect.gen(function*() {
      const { dir, env, file } = yield* setUp
      const shown = (run: { readonly code: number; readonly stdout: string; readonly stderr: string }) => ({ ...run, stdout: run.stdout.replaceAll(dir, "<dir>") })
      const dry = ["import", "telegram-export", file, "--user", "telegram:4242", "--dry-run"]
      const expected = {
        code: 0,
        stderr: "",
        stdout: "dry run of <dir>/result.json, nothing changed: 1 message(s) to add of 3, 1 already recorded (0 by id, 1 by sender, minute and text)" +
          "; from the chat with the bot, 1 bot reply(ies) and 1 command(s) left out\n" +
          "  skip    message 1, 2024-03-01T09:00:00.000Z, Zoë: \"/start\" (a command to the bot)\n" +
          "  have    message 3, 2024-03-01T09:01:00.000Z, Zoë: \"Call me after 6\" (by sender, minute and text: 4242:5001)\n" +
          "  add     message 4, 2024-03-01T09:01:30.000Z, Zoë: \"Bob is Ana's\\nbrother\"\n"
      }
      expect(shown(yield* runCli(dry, env))).toEqual(expected)
      const gaps = {
        code: 0,
        stderr: "",
        stdout: "<dir>/result.json: 1 message(s) of 3 missing from the log, 1 already recorded (0 by id, 1 by sender, minute and text)" +
          "; from the chat with the bot, 1 bot reply(ies) and 1 command(s) left out\n" +
          "  message 4, 2024-03-01T09:01:30.000Z, Zoë: \"Bob is Ana's\\nbrother\"\n"
      }
      expect(shown(yield* runCli(["reconcile", file, "--user", "telegram:4242"], env))).toEqual(gaps)
      // Neither wrote: the import itself still has the one message to add.
      const imported = shown(yield* runCli(["import", "telegram-export", file, "--user", "telegram:4242", "--quiet"], env))
      expect({ code: imported.code, stdout: imported.stdout }).toEqual({
        code: 0,
        stdout: "imported <dir>/result.json: 1 new message(s) of 3, 1 already recorded (0 by id, 1 by sender, minute and text), " +
          "1 session(s) closed for planning; from the chat with the bot, 1 bot reply(ies) and 1 command(s) left out\n" +
          "  telegram:4242:4242:2\n"
      })
      expect(shown(yield* runCli(["reconcile", file, "--user", "telegram:4242"], env))).toEqual({
        code: 0,
        stderr: "",
        stdout: "<dir>/result.json: 0 message(s) of 3 missing from the log, 2 already recorded (1 by id, 1 by sender, minute and text)" +
          "; from the chat with the bot, 1 bot reply(ies) and 1 command(s) left out\n"
      })
    }))

  it.scoped("read a chat with another bot as forwarded material, its replies included", () =>
    Effect.gen(function*() {
      const { dir, env, file } = yield* setUp
      const run = yield* runCli(["reconcile", file, "--user", "telegram:4242"], { ...env, TELEGRAM_BOT_TOKEN: "778:secret" })
      expect({ ...run, stdout: run.stdout.replaceAll(dir, "<dir>") }).toEqual({
        code: 0,
        stderr: "",
        stdout: "<dir>/result.json: 3 message(s) of 4 missing from the log, 1 already recorded (0 by id, 1 by sender, minute and text)\n" +
          "  message 1, 2024-03-01T09:00:00.000Z, Zoë: \"/start\"\n" +
          "  message 2, 2024-03-01T09:00:01.000Z, Verbatim: \"Forward me anything.\"\n" +
          "  message 4, 2024-03-01T09:01:30.000Z, Zoë: \"Bob is Ana's\\nbrother\"\n"
      })
    }))
})
