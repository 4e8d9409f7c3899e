/** Telegram end to end through the real HTTP server: webhook → session → plan → notes → reply. */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan, type Plan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { FakeTelegram } from "@verbatim/testkit/FakeTelegram"
import { DateTime, Duration, Effect, TestClock } from "effect"
import { accountingOf, noteOf, notesOf, peopleOf } from "./apiClient.js"
import {
  closeIdle,
  drain,
  eventLog,
  fixture,
  imageShowing,
  layer,
  noteBody,
  senderUpdate,
  settled,
  telegram,
  telegramCalls,
  voiceSaying
} from "./harness.js"

/** The largest size of the photo in the photo fixture, and the voice note's file. */
const photoFile = "AgACAgQAAyEFAATtoKNZAAM6aepxRQo9Uju7xRp8d7woe6ofcWkAAgwMaxspbVlTU0UxQrtPz5UBAAMCAAN5AAM7BA"
const voiceFile = "AwACAgQAAyEFAATtoKNZAAM4aepxAh2vKjfqLHAaipHgqUxlnZYAAgYaAAIpbVlTTGxj9NGdrwE7BA"

const about = (name: string, ...seqs: ReadonlyArray<number>): Plan => ({
  ...emptyPlan,
  people: [{ contactId: null, name, notes: [{ sourceItemSeqs: seqs, directives: [] }] }]
})

const text = (chatId: number, messageId: number, body: string, extra: Record<string, unknown> = {}) =>
  senderUpdate(chatId, messageId, { text: body, ...extra })

/** An `edited_message` update (update id `updateId`): the message as it now reads, edited at `editDate`. */
const edit = (updateId: number, chatId: number, messageId: number, body: string, editDate: number) => {
  const update = JSON.parse(text(chatId, messageId, body)) as { message: Record<string, unknown> }
  return JSON.stringify({ update_id: updateId, edited_message: { ...update.message, edit_date: editDate } })
}

/** The session stream of Alice's (100000001) first session. */
const alice = "session-telegram:100000001:100000001:1"

/** Post each body in order; every one is taken (200, empty body). */
const postAll = (...bodies: ReadonlyArray<string>) =>
  Effect.forEach(bodies, (body) => Effect.map(telegram(body), (reply) => expect(reply).toEqual({ status: 200, body: "" })), {
    discard: true
  })

/** Close the idle session, plan it, and read its one note's body. */
const plannedNote = Effect.gen(function*() {
  expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
  return yield* noteBody("note_1")
})

const press = (callbackId: string, data: string) =>
  JSON.stringify({
    update_id: 800000,
    callback_query: {
      id: callbackId,
      from: { id: 100000001, is_bot: false, first_name: "Alice" },
      chat_instance: "ci-1",
      message: { message_id: 9, date: 1767225600, chat: { id: 100000001, type: "private" }, text: "Who is this about?" },
      data
    }
  })

const sent = (chatId: string, text: string, extra: Record<string, unknown> = {}) => ({
  method: "sendMessage",
  body: { chat_id: chatId, text, ...extra }
})

/** Post the bodies, let the session go idle, plan it, send the replies. */
const session = (...bodies: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    for (const body of bodies) expect(yield* telegram(body)).toEqual({ status: 200, body: "" })
    expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
    return yield* drain
  })

describe("Telegram webhook end to end", () => {
  it.effect("a private text message: one note about Ana, one reply", () =>
    Effect.gen(function*() {
      expect(yield* session(fixture("telegram/01_text_private.json"))).toEqual({ sent: 1, failed: 0, held: 0 })
      expect(yield* peopleOf()).toEqual({
        items: [{ id: "person_1", user: "telegram:100000001", name: "Ana", noteCount: 1 }],
        nextCursor: null
      })
      expect(yield* noteOf("note_1")).toEqual({
        id: "note_1",
        user: "telegram:100000001",
        sessionId: "telegram:100000001:100000001:1",
        owner: { _tag: "Person", contactId: null, name: "Ana" },
        personId: "person_1",
        body: "hello there",
        sources: [{ messageId: "telegram:100000001:6557", seq: 1 }],
        recordedAt: DateTime.unsafeMake("1970-01-01T00:00:31.000Z")
      })
      expect(yield* telegramCalls).toEqual([sent("100000001", "Added 1 note: Ana.")])
    }).pipe(Effect.provide(layer([planStep(about("Ana", 1))]))))

  it.effect("a forward, and a photo caption with a text after it: each kept whole in the note", () =>
    Effect.gen(function*() {
      yield* session(fixture("telegram/02_forwarded_text_forward_origin_plus_legacy.json"))
      expect(yield* accountingOf("telegram:100000002:100000002:1")).toEqual({
        sessionId: "telegram:100000002:100000002:1",
        user: "telegram:100000002",
        status: "planned",
        messages: [{ messageId: "telegram:100000002:668", seq: 1, dispositions: [{ _tag: "InNote", noteId: "note_1" }] }],
        reminders: []
      })
      expect(yield* noteBody("note_1")).toBe(JSON.parse(fixture("telegram/02_forwarded_text_forward_origin_plus_legacy.json")).message.text)
      yield* imageShowing("telegram", photoFile, "Dave's friend Carla plays the cello")
      yield* session(fixture("telegram/03_photo_with_caption_supergroup.json"), fixture("telegram/05_text_supergroup.json"))
      expect(yield* noteBody("note_2")).toBe(
        `${JSON.parse(fixture("telegram/03_photo_with_caption_supergroup.json")).message.caption}\n🖼 Dave's friend Carla plays the cello\n\nwewew`
      )
      expect(yield* telegramCalls).toEqual([
        sent("100000002", "Added 1 note: Carol."),
        { method: "getFile", body: { file_id: photoFile } },
        sent("-1000000000001", "Added 1 note: Dave's friend.")
      ])
    }).pipe(Effect.provide(layer([planStep(about("Carol", 1)), planStep(about("Dave's friend", 1, 2))]))))

  it.effect("a voice note without caption becomes a note of its transcript, labelled as heard", () =>
    Effect.gen(function*() {
      yield* voiceSaying("telegram", voiceFile, "Ana moved to Porto in May.")
      yield* session(fixture("telegram/04_voice_supergroup.json"))
      expect(yield* accountingOf("telegram:-1000000000001:100000004:1")).toEqual({
        sessionId: "telegram:-1000000000001:100000004:1",
        user: "telegram:100000004",
        status: "planned",
        messages: [{ messageId: "telegram:-1000000000001:56", seq: 1, dispositions: [{ _tag: "InNote", noteId: "note_1" }] }],
        reminders: []
      })
      expect(yield* noteBody("note_1")).toBe("🎤 Ana moved to Porto in May.")
    }).pipe(Effect.provide(layer([planStep({ ...emptyPlan, unattached: [{ sourceItemSeqs: [1], directives: [] }] })]))))

  it.effect("an edit before planning changes the note body; /done closes the session at once", () =>
    Effect.gen(function*() {
      expect(yield* telegram(text(1111111, 1365, "Original text"))).toEqual({ status: 200, body: "" })
      expect(yield* telegram(fixture("telegram/06_edited_message_official_sample.json"))).toEqual({ status: 200, body: "" })
      expect(yield* telegram(text(1111111, 1366, "/done"))).toEqual({ status: 200, body: "" })
      expect((yield* eventLog).map((e) => e.split(" ")[1])).toEqual(["SessionOpened", "MessageReceived", "MessageEdited", "SessionClosed"])
      expect(yield* closeIdle).toEqual({ closed: 0, planned: 1 })
      expect(yield* noteBody("note_1")).toBe("Edited text")
    }).pipe(Effect.provide(layer([planStep(about("Ana", 1))]))))

  it.effect("an edit that overtakes its message captures the message as edited; the original then adds nothing", () =>
    Effect.gen(function*() {
      const edited = edit(900001, 100000001, 5, "Ana moved to Porto", 1767225700)
      expect(yield* telegram(edited)).toEqual({ status: 200, body: "" })
      expect(yield* telegram(text(100000001, 5, "Ana moved to Lisbon"))).toEqual({ status: 200, body: "" })
      expect(yield* telegram(edited)).toEqual({ status: 200, body: "" })
      expect(yield* eventLog).toEqual([
        `${alice}#1 SessionOpened`,
        `${alice}#2 MessageReceived`,
        // The edit's time, so an older edit arriving later changes nothing.
        `${alice}#3 MessageEdited`
      ])
      expect(yield* plannedNote).toBe("Ana moved to Porto")
    }).pipe(Effect.provide(layer([planStep(about("Ana", 1))]))))

  it.effect("the newest edit wins: an older edit delivered late, or again, changes nothing", () =>
    Effect.gen(function*() {
      const older = edit(900001, 100000001, 5, "Ana moved to Porto", 1767225700)
      const newer = edit(900002, 100000001, 5, "Ana moved to Faro", 1767225800)
      yield* postAll(text(100000001, 5, "Ana moved to Lisbon"), newer, older, older, newer)
      expect(yield* eventLog).toEqual([`${alice}#1 SessionOpened`, `${alice}#2 MessageReceived`, `${alice}#3 MessageEdited`])
      expect(yield* plannedNote).toBe("Ana moved to Faro")
    }).pipe(Effect.provide(layer([planStep(about("Ana", 1))]))))

  it.effect("edits that overtake their message keep the newest: an older one arriving next changes nothing", () =>
    Effect.gen(function*() {
      const older = edit(900001, 100000001, 5, "Ana moved to Porto", 1767225700)
      const newer = edit(900002, 100000001, 5, "Ana moved to Faro", 1767225800)
      yield* postAll(newer, older, text(100000001, 5, "Ana moved to Lisbon"))
      expect(yield* plannedNote).toBe("Ana moved to Faro")
    }).pipe(Effect.provide(layer([planStep(about("Ana", 1))]))))

  it.effect("a newest edit that restores the stored text still keeps an older edit arriving later out", () =>
    Effect.gen(function*() {
      const restored = edit(900002, 100000001, 5, "Ana moved to Lisbon", 1767225800)
      const older = edit(900001, 100000001, 5, "Ana moved to Porto", 1767225700)
      yield* postAll(text(100000001, 5, "Ana moved to Lisbon"), restored, older)
      expect(yield* plannedNote).toBe("Ana moved to Lisbon")
    }).pipe(Effect.provide(layer([planStep(about("Ana", 1))]))))

  it.effect("two edits in the same second: a redelivery of the first does not undo the second", () =>
    Effect.gen(function*() {
      const first = edit(900001, 100000001, 5, "Ana moved to Porto", 1767225700)
      const second = edit(900002, 100000001, 5, "Ana moved to Faro", 1767225700)
      yield* postAll(text(100000001, 5, "Ana moved to Lisbon"), first, second, first)
      expect(yield* eventLog).toEqual([
        `${alice}#1 SessionOpened`,
        `${alice}#2 MessageReceived`,
        `${alice}#3 MessageEdited`,
        `${alice}#4 MessageEdited`
      ])
      expect(yield* plannedNote).toBe("Ana moved to Faro")
    }).pipe(Effect.provide(layer([planStep(about("Ana", 1))]))))

  it.effect("a chat the provider rate-limits is left alone for its retry-after, then its reply is sent once", () =>
    Effect.gen(function*() {
      expect(yield* telegram(text(100000001, 1, "Ana loves jazz"))).toEqual({ status: 200, body: "" })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      yield* Effect.flatMap(FakeTelegram, (fake) => fake.failNext(1, "rate-limited"))
      const passes = [yield* drain]
      for (const seconds of [2, 4, 1]) {
        yield* TestClock.adjust(Duration.seconds(seconds))
        passes.push(yield* drain)
      }
      expect(passes).toEqual([
        { sent: 0, failed: 1, held: 0 },
        { sent: 0, failed: 0, held: 1 },
        { sent: 0, failed: 0, held: 1 },
        { sent: 1, failed: 0, held: 0 }
      ])
      const reply = sent("100000001", "Added 1 note: Ana.")
      expect(yield* telegramCalls).toEqual([reply, reply])
    }).pipe(Effect.provide(layer([planStep(about("Ana", 1))]))))

  it.effect("a forwarded message that reads /done is content, not the command", () =>
    Effect.gen(function*() {
      const forwarded = text(100000001, 2, "/done", { forward_origin: { type: "hidden_user", sender_user_name: "Ana", date: 1767225000 } })
      expect(yield* telegram(text(100000001, 1, "Ana wrote:"))).toEqual({ status: 200, body: "" })
      expect(yield* telegram(forwarded)).toEqual({ status: 200, body: "" })
      expect(yield* plannedNote).toBe("Ana wrote:\n\n/done")
    }).pipe(Effect.provide(layer([planStep(about("Ana", 1, 2))]))))

  it.effect("a question answered by a button: one note, its buttons taken away; a second press: still one note, and only the button's notice says so", () =>
    Effect.gen(function*() {
      yield* session(text(100000001, 1, "She starts the new job on Monday"))
      const asked = yield* telegramCalls
      expect(asked).toEqual([
        sent("100000001", "Added no notes. 1 question."),
        sent("100000001", "Who is this about?\n\n«She starts the new job on Monday»", {
          reply_markup: {
            inline_keyboard: [
              [{ text: "Ana", callback_data: "a:q_1:0" }],
              [{ text: "Bea", callback_data: "a:q_1:1" }],
              [{ text: "Keep as my own note", callback_data: "a:q_1:2" }]
            ]
          }
        })
      ])
      expect(yield* telegram(press("cb-1", "a:q_1:1"))).toEqual({ status: 200, body: "" })
      expect(yield* telegram(press("cb-2", "a:q_1:1"))).toEqual({ status: 200, body: "" })
      expect(yield* drain).toEqual({ sent: 1, failed: 0, held: 0 })
      const notes = yield* notesOf("person_1")
      expect(notes.items.map((n) => [n.id, n.body])).toEqual([
        ["note_1", "She starts the new job on Monday"]
      ])
      yield* settled
      const calls = yield* telegramCalls
      expect(calls.slice(2).filter((c) => c.method === "sendMessage")).toEqual([sent("100000001", "Filed under Bea.")])
      const acknowledged = calls.filter((c) => c.method === "answerCallbackQuery").map((c) => JSON.stringify(c.body)).sort()
      expect(acknowledged).toEqual([
        JSON.stringify({ callback_query_id: "cb-1", text: "Filed under Bea." }),
        JSON.stringify({ callback_query_id: "cb-2", text: "That question was already answered; nothing changed." })
      ])
      const removed = { method: "editMessageReplyMarkup", body: { chat_id: "100000001", message_id: 9, reply_markup: { inline_keyboard: [] } } }
      expect(calls.filter((c) => c.method === "editMessageReplyMarkup")).toEqual([removed, removed])
    }).pipe(Effect.provide(layer([planStep({ ...emptyPlan, unclear: [{ sourceItemSeqs: [1], candidates: ["Ana", "Bea"] }] })]))))

  it.effect("a button press that is not ours is refused politely in the button's notice, and nothing is stored", () =>
    Effect.gen(function*() {
      expect(yield* telegram(fixture("telegram/07_callback_query_official_sample_ha.json"))).toEqual({ status: 200, body: "" })
      expect(yield* eventLog).toEqual([])
      yield* settled
      expect(yield* drain).toEqual({ sent: 0, failed: 0, held: 0 })
      expect(yield* telegramCalls).toEqual([
        { method: "answerCallbackQuery", body: { callback_query_id: "4382bfdwdsb323b2d9", text: "Sorry, I could not find that question." } }
      ])
    }).pipe(Effect.provide(layer([]))))

  it.effect("a reply-to message (a bot command in a supergroup) is captured with its text", () =>
    Effect.gen(function*() {
      yield* session(fixture("telegram/08_reply_to_message_supergroup.json"))
      expect(yield* noteBody("note_1")).toBe("/report")
      expect(yield* telegramCalls).toEqual([sent("-1000000000002", "Added 1 note: your own notes.")])
    }).pipe(Effect.provide(layer([planStep({ ...emptyPlan, unattached: [{ sourceItemSeqs: [1], directives: [] }] })]))))
})
