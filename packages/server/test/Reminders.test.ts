/**
 * Reminders end to end, through the real Telegram webhook, the plan job and the outbox: a plan's
 * reminder with the sender's exact words is scheduled, delivered once with those words whole and
 * its buttons, and marked done by a press; a reminder the plan could not quote is never scheduled,
 * and the sender is told so.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan } from "@verbatim/domain/Plan"
import { reminderIdOf } from "@verbatim/domain/Reminders/FromPlan"
import { MessageId, NoteId, ReminderId } from "@verbatim/domain/Ids"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { DateTime, Effect } from "effect"
import * as ReminderEdits from "../src/Reminders/Edits.js"
import { client, failureOf, remindersOf } from "./apiClient.js"
import { eventually } from "./eventually.js"
import { aliceUpdate, eventLog, Harness, layer, senderUpdate, telegram, telegramCalls } from "./harness.js"
import { press, reminderTags, running, sentTexts } from "./reminderSteps.js"

const text = "Ana moves to Porto in May. Remind me to ask her about the flat tomorrow."
const quote = "Remind me to ask her about the flat tomorrow."
const plan = (reminders: ReadonlyArray<{ seq: number; quote: string; due: string }>) => ({
  ...emptyPlan,
  people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [quote] }] }],
  botMessages: [2],
  reminders
})


const capture = Effect.gen(function*() {
  expect(yield* telegram(aliceUpdate(1, { text }))).toEqual({ status: 200, body: "" })
  expect(yield* telegram(aliceUpdate(2, { text: "/done" }))).toEqual({ status: 200, body: "" })
})

const filed = "Added 1 note: Ana.\nTaken as meant for me, so kept out of the notes: “Remind me to ask her about the flat tomorrow.”."


describe("reminders end to end", () => {
  it.live("a reminder in the sender's words is scheduled, delivered once with them whole (late, as its time has passed), and marked done", () =>
    Effect.gen(function*() {
      yield* running
      yield* capture
      const { baseUrl } = yield* Harness
      const open = `${baseUrl}/notes/note_1?mark=telegram%3A100000001%3A1%3A27-72`
      const delivered = "Reminder: Remind me to ask her about the flat tomorrow.\n\n" +
        "From your message: Ana moves to Porto in May. Remind me to ask her about the flat tomorrow.\n\n" +
        `In your note about Ana: Ana moves to Porto in May.\nOpen: ${open}\n\n` +
        "Due at 2 January 2026, 09:00 (UTC), sent late."
      const calls = yield* eventually(telegramCalls, (all) => sentTexts(all).includes(delivered))
      expect(sentTexts(calls)).toEqual([filed, delivered])
      const reminderId = reminderIdOf(MessageId.make("telegram:100000001:1"), 27, 27 + quote.length)
      const message = calls.find((c) => c.method === "sendMessage" && (c.body as { text: string }).text === delivered)
      expect((message?.body as { reply_markup: unknown }).reply_markup).toEqual({
        inline_keyboard: [
          [{ text: "Done", callback_data: `r:done:${reminderId}` }],
          [{ text: "Snooze 1 hour", callback_data: `r:hour:${reminderId}` }],
          [{ text: "Tomorrow 09:00", callback_data: `r:morning:${reminderId}` }],
          [{ text: "Open", url: open }]
        ]
      })
      expect(yield* telegram(press(`r:done:${reminderId}`))).toEqual({ status: 200, body: "" })
      expect(yield* telegram(press(`r:done:${reminderId}`))).toEqual({ status: 200, body: "" })
      const log = yield* eventually(eventLog, (lines) => reminderTags(lines).includes("ReminderDone"))
      expect(reminderTags(log)).toEqual(["ReminderScheduled", "RemindersTaken", "ReminderDelivered", "ReminderDone"])
      const acknowledged = (yield* telegramCalls).filter((c) => c.method === "answerCallbackQuery").map((c) => (c.body as { text: string }).text)
      expect(acknowledged).toEqual(["Marked done."])
    }).pipe(Effect.scoped, Effect.provide(layer([planStep(plan([{ seq: 1, quote, due: "2026-01-02T09:00" }]))]))), 60_000)

  it.live("a reminder due later is scheduled and not yet sent; words not in the message are no reminder, and the sender is told", () =>
    Effect.gen(function*() {
      yield* running
      yield* capture
      const told = "I could not tell what to remind you of in message 1."
      const calls = yield* eventually(telegramCalls, (all) => sentTexts(all).includes(told))
      expect(sentTexts(calls).sort()).toEqual([filed, told].sort())
      const log = yield* eventually(eventLog, (lines) => reminderTags(lines).includes("RemindersTaken"))
      expect(reminderTags(log)).toEqual(["ReminderScheduled", "RemindersTaken"])
      // The note's audit names the reminder its words set.
      const listed = yield* remindersOf("telegram:100000001")
      const audit = yield* client((c) => c.api.noteAudit({ path: { id: NoteId.make("note_1") } }))
      expect(audit.reminders).toEqual([{
        reminderId: listed.items[0]?.id,
        messageId: "telegram:100000001:1",
        quote,
        start: text.indexOf(quote),
        end: text.indexOf(quote) + quote.length,
        dueLocal: "2030-01-02T09:00",
        zone: "UTC",
        status: "scheduled"
      }])
    }).pipe(
      Effect.scoped,
      Effect.provide(layer([planStep(plan([{ seq: 1, quote, due: "2030-01-02T09:00" }, { seq: 1, quote: "remind me about the flat", due: "2026-01-02T09:00" }]))]))
    ), 60_000)

  it.live("/tz sets the sender's zone (or says which names are close), and /reminders lists what is coming up, each with its Cancel button", () =>
    Effect.gen(function*() {
      yield* running
      yield* capture
      yield* eventually(eventLog, (lines) => reminderTags(lines).includes("RemindersTaken"))
      for (const [id, words] of [[3, "/tz"], [4, "/tz Europe/Lisbn"], [5, "/tz europe/lisbon"], [6, "/tz Europe/Lisbon"], [7, "/reminders"]] as const) {
        expect(yield* telegram(aliceUpdate(id, { text: words }))).toEqual({ status: 200, body: "" })
      }
      const listed = "Coming up (Europe/Lisbon):\n1. 2 January 2030, 09:00 (UTC): Remind me to ask her about the flat tomorrow."
      const calls = yield* eventually(telegramCalls, (all) => sentTexts(all).includes(listed))
      expect(sentTexts(calls).slice(1)).toEqual([
        "Your time zone is UTC. To change it, send /tz and a zone name, such as /tz Europe/Lisbon.",
        "I do not know the time zone \"Europe/Lisbn\". Close ones: Europe/Lisbon, Europe/Kiev, Europe/Kirov. Send /tz and one of them.",
        "Your time zone is now Europe/Lisbon: reminders are set and sent on its clock.",
        "Your time zone is Europe/Lisbon already.",
        listed
      ])
      const reminderId = reminderIdOf(MessageId.make("telegram:100000001:1"), 27, 27 + quote.length)
      const list = calls.find((c) => c.method === "sendMessage" && (c.body as { text: string }).text === listed)
      expect((list?.body as { reply_markup: unknown }).reply_markup).toEqual({ inline_keyboard: [[{ text: "Cancel 1", callback_data: `r:cancel:${reminderId}` }]] })
      expect(yield* telegram(press(`r:cancel:${reminderId}`))).toEqual({ status: 200, body: "" })
      const log = yield* eventually(eventLog, (lines) => reminderTags(lines).includes("ReminderCancelled"))
      expect(reminderTags(log)).toEqual(["ReminderScheduled", "RemindersTaken", "ReminderCancelled"])
    }).pipe(Effect.scoped, Effect.provide(layer([planStep(plan([{ seq: 1, quote, due: "2030-01-02T09:00" }]))]))), 60_000)

  it.live("the API lists a user's reminders and reschedules, snoozes, marks done and cancels them, answering a change it cannot make with 400, 404 or 409", () =>
    Effect.gen(function*() {
      yield* running
      yield* capture
      yield* eventually(eventLog, (lines) => reminderTags(lines).includes("RemindersTaken"))
      const id = reminderIdOf(MessageId.make("telegram:100000001:1"), 27, 27 + quote.length)
      const reminder = {
        id,
        user: "telegram:100000001",
        sessionId: "telegram:100000001:100000001:1",
        messageId: "telegram:100000001:1",
        noteId: "note_1",
        quote,
        start: 27,
        end: 27 + quote.length,
        dueAt: DateTime.unsafeMake("2030-01-02T09:00:00.000Z"),
        zone: "UTC",
        dueLocal: "2030-01-02T09:00",
        status: "scheduled",
        late: false
      }
      const reminderAt = { path: { id } }
      expect(yield* remindersOf("telegram:100000001")).toEqual({ items: [reminder] })
      expect(yield* remindersOf("telegram:100000001", "done")).toEqual({ items: [] })
      const reschedule = (due: string) => client((c) => c.reminders.rescheduleReminder({ ...reminderAt, payload: { due } }))
      expect(yield* reschedule("2031-02-03T10:30")).toEqual({
        ...reminder,
        dueAt: DateTime.unsafeMake("2031-02-03T10:30:00.000Z"),
        dueLocal: "2031-02-03T10:30"
      })
      expect(yield* failureOf(reschedule("2020-02-03T10:30"))).toEqual({ _tag: "BadRequest", message: "the new time has already passed" })
      expect(yield* failureOf(reschedule("2031-02-30T10:30")))
        .toEqual({ _tag: "BadRequest", message: "due: 2031-02-30T10:30 is not a day and time of the calendar" })
      const before = Date.now()
      const snoozed = yield* client((c) => c.reminders.snoozeReminder({ ...reminderAt, payload: { until: "hour" } }))
      const after = Date.now()
      // An hour from the moment of the request, on the live clock; in UTC its local reading is its instant's.
      const snoozedAt = snoozed.dueAt === null ? Number.NaN : DateTime.toEpochMillis(snoozed.dueAt)
      expect(snoozedAt).toBeGreaterThanOrEqual(before + 3_600_000)
      expect(snoozedAt).toBeLessThanOrEqual(after + 3_600_000)
      const later = { ...reminder, dueAt: DateTime.unsafeMake(snoozedAt), dueLocal: new Date(snoozedAt).toISOString().slice(0, 16) }
      expect(snoozed).toEqual(later)
      expect(yield* client((c) => c.reminders.reminderDone(reminderAt))).toEqual({ ...later, status: "done" })
      expect(yield* failureOf(client((c) => c.reminders.cancelReminder(reminderAt)))).toEqual({ _tag: "Conflict", message: "the reminder is already done" })
      expect(yield* failureOf(client((c) => c.reminders.reminderDone({ path: { id: ReminderId.make("rnothere") } }))))
        .toEqual({ _tag: "NotFound", resource: "reminder", id: "rnothere" })
      const log = yield* eventually(eventLog, (lines) => reminderTags(lines).includes("ReminderDone"))
      expect(reminderTags(log)).toEqual(["ReminderScheduled", "RemindersTaken", "ReminderRescheduled", "ReminderSnoozed", "ReminderDone"])
    }).pipe(Effect.scoped, Effect.provide(layer([planStep(plan([{ seq: 1, quote, due: "2030-01-02T09:00" }]))]))), 60_000)

  it.live("an edit that keeps a reminder's words leaves it be; one that takes them away cancels it and says so", () =>
    Effect.gen(function*() {
      yield* running
      yield* capture
      yield* eventually(eventLog, (lines) => reminderTags(lines).includes("RemindersTaken"))
      const edited = (updateId: number, body: string, editDate: number) => {
        const update = JSON.parse(senderUpdate(100000001, 1, { text: body })) as { message: Record<string, unknown> }
        return JSON.stringify({ update_id: updateId, edited_message: { ...update.message, edit_date: editDate } })
      }
      expect(yield* telegram(edited(910001, `${text} Thanks!`, 1767225700))).toEqual({ status: 200, body: "" })
      yield* eventually(eventLog, (lines) => lines.filter((line) => line.endsWith(" MessageEdited")).length === 1)
      // The words are still there: a pass over the edited message cancels nothing.
      expect(yield* ReminderEdits.pass).toBe(0)
      expect(reminderTags(yield* eventLog)).toEqual(["ReminderScheduled", "RemindersTaken"])
      expect(yield* telegram(edited(910002, "Ana moves to Porto in May.", 1767225800))).toEqual({ status: 200, body: "" })
      const told = `Your edit took away the words of a reminder, so it is cancelled: "${quote}"`
      const calls = yield* eventually(telegramCalls, (all) => sentTexts(all).includes(told))
      expect(sentTexts(calls)).toEqual([filed, told])
      expect(reminderTags(yield* eventLog)).toEqual(["ReminderScheduled", "RemindersTaken", "ReminderCancelled"])
    }).pipe(Effect.scoped, Effect.provide(layer([planStep(plan([{ seq: 1, quote, due: "2030-01-02T09:00" }]))]))), 60_000)
})
