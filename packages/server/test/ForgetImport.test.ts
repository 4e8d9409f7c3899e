/**
 * Forgetting, then `verbatim import` of a chat export that still holds the forgotten message: the
 * import finds it as the erased message of its minute and brings none of its words back, finds
 * the kept ones by their words and records only the line the log never had. A WhatsApp export
 * after a message is forgotten, a Telegram export of the chat with the bot after a person is.
 */
import { describe, expect, it } from "@effect/vitest"
import { messageIdOf, type SessionId, UserId } from "@verbatim/domain/Ids"
import { NewMessage } from "@verbatim/domain/Inbound/Inbound"
import { emptyPlan } from "@verbatim/domain/Plan"
import { packagedPromptDirectory } from "@verbatim/planner/PromptRegistry"
import { EventStore, start } from "@verbatim/projections/EventStore"
import { Notebook } from "@verbatim/projections/Notebook"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import { fakeBot } from "@verbatim/testkit/FakeTelegram"
import { planStep, ScriptedLanguageModel } from "@verbatim/testkit/ScriptedLanguageModel"
import { DateTime, Effect, Option, Stream } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { forget } from "../src/Forget/Forgetting.js"
import * as Ingest from "../src/Inbox/Ingest.js"
import { PlanJob } from "../src/Planning/PlanJob.js"
import { runCli, tempDir } from "./CliHarness.js"
import { capture, servicesLayer } from "./ReplayFixture.js"
import { storeHolds } from "./StoreBytes.js"

const secret = "Zephyrine keeps the spare key under the blue pot"
const words = [secret, "Zephyrine", "spare key", "blue pot"]

/** Every message of the log: its provider id and its text, in log order. */
const received = Effect.flatMap(EventStore, (store) => Stream.runCollect(store.readAll(start, { types: ["MessageReceived"] }))).pipe(
  Effect.map((events) => [...events].flatMap((e) => e.event._tag === "MessageReceived" ? [`${e.event.message.providerMessageId}: ${e.event.message.text}`] : []))
)

/** Where each forgotten word still is: found by search, in a note or a person's name of `user`, in the store's files. */
const traces = (dir: string, user: string) =>
  Effect.gen(function*() {
    const read = yield* Notebook
    const notebook = yield* read.notebook(UserId.make(user))
    const noted = [...notebook.people.flatMap((p) => [p.name, ...p.notes.map((n) => n.body)]), ...notebook.unattached.map((n) => n.body)].join("\n")
    return yield* Effect.forEach(words, (word) =>
      Effect.map(read.search(word, { limit: 50 }), (page) => ({ word, search: page.hits.length > 0, notes: noted.includes(word), files: storeHolds(dir, word).length > 0 })))
  })

/** What `traces` reads when no word is anywhere (`true`: each is everywhere). */
const everywhere = (found: boolean) => words.map((word) => ({ word, search: found, notes: found, files: found }))

/** The notes of `user`, as "person: body" lines. */
const notesOf = (user: string) =>
  Effect.map(Effect.flatMap(Notebook, (read) => read.notebook(UserId.make(user))), (notebook) => [
    ...notebook.people.flatMap((p) => p.notes.map((n) => `${p.name}: ${n.body}`)),
    ...notebook.unattached.map((n) => `(unattached): ${n.body}`)
  ].sort())

/** Each message of a session as "seq: disposition". */
const accounting = (sessionId: SessionId) =>
  Effect.map(Effect.flatMap(Notebook, (read) => read.sessionAccounting(sessionId)), (view) =>
    Option.getOrThrow(view).messages.map((m) => `${m.seq}: ${m.disposition._tag}`))

/** Close a session and plan it as the scripted model answers next. */
const closeAndPlan = (sessionId: SessionId) =>
  Effect.zipRight(Ingest.closeSession(sessionId, "command"), Effect.flatMap(PlanJob, (job) => job.run(sessionId)))

const person = (name: string, seqs: ReadonlyArray<number>) => ({ contactId: null, name, notes: [{ sourceItemSeqs: [...seqs], directives: [] }] })

/** Run `verbatim import` over the export `text` written to `dir`: its exit code and what it printed, the file's path as `<export>` (stderr has only its progress). */
const importExport = (dir: string, format: "whatsapp-export" | "telegram-export", text: string, user: string) =>
  Effect.gen(function*() {
    const file = join(dir, format === "whatsapp-export" ? "chat.txt" : "result.json")
    writeFileSync(file, text)
    const run = yield* runCli(["import", format, file, "--user", user, "--quiet"], { VERBATIM_DATA_DIR: dir })
    return { code: run.code, stdout: run.stdout.replaceAll(file, "<export>") }
  })

/** The services over a fresh store in a temp folder, the model answering `steps`. */
const inStore = <A, E, R>(steps: Parameters<typeof ScriptedLanguageModel.layer>[0], body: (dir: string) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(tempDir("verbatim-forget-import-"), (dir) =>
    Effect.provide(body(dir), servicesLayer(dir, packagedPromptDirectory, ScriptedLanguageModel.layer(steps))))

const ana = "Ana moved to Porto."
const bob = "Bob owes me lunch"
/** The line of the export the log never had. */
const fresh = "Carla starts at the bakery on Monday"
/** The plan of the session the import fills: the fresh line, filed under Carla. */
const carlaPlan = planStep({ ...emptyPlan, people: [person("Carla", [1])] })

/** After the import: its session planned, then what the log, the live session's accounting, the notes and the store hold. */
const settled = (dir: string, user: string, live: SessionId, imported: SessionId) =>
  Effect.gen(function*() {
    expect(yield* closeAndPlan(imported)).toEqual("planned")
    return { received: yield* received, accounting: yield* accounting(live), notes: yield* notesOf(user), traces: yield* traces(dir, user) }
  })

/**
 * What `settled` reads when the forgotten message (the second) came back in no form, the kept two
 * were not doubled and the fresh line was recorded once; `ids` are the provider ids of the four.
 */
const onceEach = (ids: readonly [string, string, string, string]) => ({
  received: [`${ids[0]}: ${ana}`, `${ids[1]}: `, `${ids[2]}: ${bob}`, `${ids[3]}: ${fresh}`],
  accounting: ["1: InNote", "2: Erased", "3: InNote"],
  notes: [`Ana: ${ana}`, `Bob: ${bob}`, `Carla: ${fresh}`],
  traces: everywhere(false)
})

const mia = "351910000001"
const miaSaid = (id: string, iso: string, text: string) =>
  Ingest.capture(NewMessage.make({
    provider: "whatsapp", providerMessageId: id, senderId: mia, chatId: mia, senderName: "Mia", text, kind: "text",
    forwardedFrom: null, replyTo: null, attachments: [], links: [], mediaGroup: null, sentAt: DateTime.unsafeMake(iso)
  }))

const alice = "telegram:100000001"

/** A message of Alice's in a Telegram Desktop export, sent at `iso`. */
const telegramLine = (id: number, iso: string, text: string) => ({
  id, type: "message", date: iso.replace("Z", ""), date_unixtime: String(Date.parse(iso) / 1000), from: "Alice", from_id: "user100000001", text
})

describe("forgetting, then importing an export that holds the forgotten words", () => {
  it.scoped("a forgotten message in a WhatsApp export is not brought back; the kept ones are not doubled; the new line is recorded once", () =>
    inStore([planStep({ ...emptyPlan, people: [person("Ana", [1, 2]), person("Bob", [3])] }), carlaPlan], (dir) =>
      Effect.gen(function*() {
        yield* miaSaid("wamid.A1", "2024-03-01T09:01:10Z", ana)
        // The forgotten message shares its minute with a kept one.
        yield* miaSaid("wamid.A2", "2024-03-01T09:01:40Z", secret)
        yield* miaSaid("wamid.A3", "2024-03-01T09:02:05Z", bob)
        const live = `whatsapp:${mia}:${mia}:1` as SessionId
        expect(yield* closeAndPlan(live)).toEqual("planned")
        expect(yield* traces(dir, `whatsapp:${mia}`)).toEqual(everywhere(true))
        const forgot = yield* forget({ _tag: "Message", messageId: messageIdOf("whatsapp", "wamid.A2") }, null, null)
        expect({ messages: forgot.messages, sessions: forgot.sessions, people: forgot.people }).toEqual({ messages: 1, sessions: 1, people: 0 })
        const chat = [
          `01/03/2024, 09:01 - Mia: ${ana}`,
          `01/03/2024, 09:01 - Mia: ${secret}`,
          `01/03/2024, 09:02 - Mia: ${bob}`,
          `01/03/2024, 09:05 - Mia: ${fresh}`
        ].join("\n")
        const imported = yield* importExport(dir, "whatsapp-export", chat, `whatsapp:${mia}`)
        expect(imported).toEqual({
          code: 0,
          stdout: "imported <export>: 1 new message(s) of 4, 3 already recorded (0 by id, 3 by sender, minute and text), 1 session(s) closed for planning\n" +
            `  whatsapp:${mia}:${mia}:2\n`
        })
        const again = yield* importExport(dir, "whatsapp-export", chat, `whatsapp:${mia}`)
        expect(again.stdout).toEqual("imported <export>: 0 new message(s) of 4, 4 already recorded (1 by id, 3 by sender, minute and text), 0 session(s) closed for planning\n")
        expect(yield* settled(dir, `whatsapp:${mia}`, live, `whatsapp:${mia}:${mia}:2` as SessionId)).toEqual(
          onceEach(["wamid.A1", "wamid.A2", "wamid.A3", "whatsapp-export:e7a32207/2024-03-01T09:05:00.000Z/8500d267/1"])
        )
      })), { timeout: 120_000 })

  it.scoped("a forgotten person's message in a Telegram export of the chat with the bot is not brought back, nor their name", () =>
    inStore([planStep({ ...emptyPlan, people: [person("Ana", [1]), person("Zephyrine", [2]), person("Bob", [3])] }), carlaPlan], (dir) =>
      Effect.gen(function*() {
        yield* capture(1, ana, DateTime.unsafeMake("2024-03-01T09:01:10Z"))
        yield* capture(2, secret, DateTime.unsafeMake("2024-03-01T09:02:20Z"))
        yield* capture(3, bob, DateTime.unsafeMake("2024-03-01T09:03:05Z"))
        const live = "telegram:100000001:100000001:1" as SessionId
        expect(yield* closeAndPlan(live)).toEqual("planned")
        expect(yield* traces(dir, alice)).toEqual(everywhere(true))
        const people = yield* Effect.flatMap(SessionLookups, (read) => read.knownPeople(UserId.make(alice)))
        const zephyrine = people.find((p) => p.name === "Zephyrine")!
        const forgot = yield* forget({ _tag: "Person", personId: zephyrine.personId }, null, null)
        expect({ messages: forgot.messages, sessions: forgot.sessions, people: forgot.people }).toEqual({ messages: 1, sessions: 1, people: 1 })
        // Telegram numbered the messages in Alice's account, not the bot's: they are found by minute and words.
        const exported = JSON.stringify({
          name: "Verbatim",
          type: "bot_chat",
          id: fakeBot.id,
          messages: [
            telegramLine(501, "2024-03-01T09:01:10Z", ana),
            telegramLine(502, "2024-03-01T09:02:20Z", secret),
            { ...telegramLine(503, "2024-03-01T09:02:21Z", "Added 3 notes: Ana, Zephyrine, Bob."), from: "Verbatim", from_id: `user${fakeBot.id}` },
            telegramLine(504, "2024-03-01T09:03:05Z", bob),
            telegramLine(505, "2024-03-01T09:07:00Z", fresh)
          ]
        })
        const imported = yield* importExport(dir, "telegram-export", exported, alice)
        expect(imported).toEqual({
          code: 0,
          stdout: "imported <export>: 1 new message(s) of 4, 3 already recorded (0 by id, 3 by sender, minute and text), 1 session(s) closed for planning; " +
            "from the chat with the bot, 1 bot reply(ies) and 0 command(s) left out\n" +
            "  telegram:100000001:100000001:2\n"
        })
        expect((yield* importExport(dir, "telegram-export", exported, alice)).stdout).toEqual(
          "imported <export>: 0 new message(s) of 4, 4 already recorded (1 by id, 3 by sender, minute and text), 0 session(s) closed for planning; " +
            "from the chat with the bot, 1 bot reply(ies) and 0 command(s) left out\n"
        )
        expect(yield* settled(dir, alice, live, "telegram:100000001:100000001:2" as SessionId)).toEqual(
          onceEach(["100000001:1", "100000001:2", "100000001:3", "telegram-export:123456:505"])
        )
      })), { timeout: 120_000 })
})
