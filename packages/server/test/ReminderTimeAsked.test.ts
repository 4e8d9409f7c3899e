/**
 * A reminder whose time the plan did not make clear is a question, never dropped: the sender's
 * words whole, with Tomorrow 09:00 / Next Monday 09:00 / Pick a time on the page / No reminder,
 * through the real Telegram webhook and outbox. A promoted replay re-derives a session's
 * reminders: those its plans no longer ask for are cancelled and the sender told, those the
 * sender acted on stay as they were left.
 */
import { describe, expect, it } from "@effect/vitest"
import { MessageId, SessionId } from "@verbatim/domain/Ids"
import { emptyPlan } from "@verbatim/domain/Plan"
import { readableReading } from "@verbatim/domain/ReadableTime"
import { reminderIdOf } from "@verbatim/domain/Reminders/FromPlan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { ReminderBook } from "@verbatim/projections/ReminderBook"
import { PlanJob } from "../src/Planning/PlanJob.js"
import * as ReminderIntake from "../src/Reminders/Intake.js"
import { client, remindersOf } from "./apiClient.js"
import { eventually } from "./eventually.js"
import { aliceUpdate, eventLog, layer, telegram, telegramCalls } from "./harness.js"
import { press, reminderTags, running, sentTexts } from "./reminderSteps.js"

const first = "Remind me to ask her about the flat sometime."
const second = "Remind me to call the agent."
const text = `Ana moves to Porto in May. ${first} ${second}`
const message = MessageId.make("telegram:100000001:1")
const firstId = reminderIdOf(message, text.indexOf(first), text.indexOf(first) + first.length)
const secondId = reminderIdOf(message, text.indexOf(second), text.indexOf(second) + second.length)

const plan = (reminders: ReadonlyArray<{ seq: number; quote: string; due: string }>) => ({
  ...emptyPlan,
  people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [first, second] }] }],
  botMessages: [2],
  reminders
})

const capture = Effect.gen(function*() {
  expect(yield* telegram(aliceUpdate(1, { text }))).toEqual({ status: 200, body: "" })
  expect(yield* telegram(aliceUpdate(2, { text: "/done" }))).toEqual({ status: 200, body: "" })
})

const question = `I could not tell when to remind you: "${first}"\nWhen should I remind you?`

/** The acknowledgements of the presses, in order. */
const acknowledged = Effect.map(telegramCalls, (calls) =>
  calls.filter((c) => c.method === "answerCallbackQuery").map((c) => (c.body as { text: string }).text))

/** 09:00 on the first Monday after today (UTC), found by walking the calendar. */
const nextMonday = (): string => {
  const day = new Date()
  day.setUTCHours(0, 0, 0, 0)
  do day.setUTCDate(day.getUTCDate() + 1)
  while (day.getUTCDay() !== 1)
  return `${day.toISOString().slice(0, 10)}T09:00`
}

describe("a reminder whose time is not clear", () => {
  it.live("is asked with its four choices; the way to the page keeps them; Next Monday sets it, and it can be cancelled after", () =>
    Effect.gen(function*() {
      yield* running
      yield* capture
      const calls = yield* eventually(telegramCalls, (all) => sentTexts(all).includes(question))
      const asked = calls.find((c) => c.method === "sendMessage" && (c.body as { text: string }).text === question)
      expect((asked?.body as { reply_markup: unknown }).reply_markup).toEqual({
        inline_keyboard: [
          [{ text: "Tomorrow 09:00", callback_data: `r:morning:${firstId}` }],
          [{ text: "Next Monday 09:00", callback_data: `r:monday:${firstId}` }],
          [{ text: "Pick a time on the page", callback_data: `r:page:${firstId}` }],
          [{ text: "No reminder", callback_data: `r:cancel:${firstId}` }]
        ]
      })
      const waiting = yield* remindersOf("telegram:100000001", "asking")
      expect(waiting.items).toEqual([{
        id: firstId,
        user: "telegram:100000001",
        sessionId: "telegram:100000001:100000001:1",
        messageId: message,
        noteId: "note_1",
        quote: first,
        start: text.indexOf(first),
        end: text.indexOf(first) + first.length,
        dueAt: null,
        zone: "UTC",
        dueLocal: null,
        status: "asking",
        late: false
      }])
      // `/reminders` lists it first, with its Cancel ("No reminder") beside the one set.
      expect(yield* telegram(aliceUpdate(3, { text: "/reminders" }))).toEqual({ status: 200, body: "" })
      const listed = `Coming up (UTC):\n1. no time set yet: ${first}\n2. 2 January 2030, 09:00: ${second}`
      yield* eventually(telegramCalls, (all) => sentTexts(all).includes(listed))
      expect(yield* telegram(press(`r:page:${firstId}`, 800001))).toEqual({ status: 200, body: "" })
      expect(yield* telegram(press(`r:monday:${firstId}`, 800002))).toEqual({ status: 200, body: "" })
      expect(yield* telegram(press(`r:cancel:${firstId}`, 800003))).toEqual({ status: 200, body: "" })
      const monday = nextMonday()
      expect(yield* eventually(acknowledged, (texts) => texts.length === 3)).toEqual([
        "Pick a time on the Reminders page: https://verbatim.example/reminders (send /web first if you are not signed in).",
        `I will remind you at ${readableReading(monday)} (UTC).`,
        "Cancelled."
      ])
      const log = yield* eventually(eventLog, (lines) => reminderTags(lines).includes("ReminderCancelled"))
      expect(reminderTags(log)).toEqual(["ReminderTimeAsked", "ReminderScheduled", "RemindersTaken", "ReminderRescheduled", "ReminderCancelled"])
      const set = yield* remindersOf("telegram:100000001", "cancelled")
      expect(set.items.map((r) => r.dueLocal)).toEqual([monday])
      // The question's buttons stayed through the way to the page, and went with the answer.
      const removed = (yield* telegramCalls).filter((c) => c.method === "editMessageReplyMarkup").length
      expect(removed).toBe(2)
    }).pipe(
      Effect.scoped,
      Effect.provide(layer([planStep(plan([{ seq: 1, quote: first, due: "whenever suits" }, { seq: 1, quote: second, due: "2030-01-02T09:00" }]))], {
        publicUrl: "https://verbatim.example"
      }))
    ), 60_000)

  it.live("is asked once however often the plan's reminders are taken again (a crash before they were recorded)", () =>
    Effect.gen(function*() {
      yield* running
      yield* capture
      yield* eventually(eventLog, (lines) => reminderTags(lines).includes("RemindersTaken"))
      const sessionId = SessionId.make("telegram:100000001:100000001:1")
      const [asked] = yield* Effect.flatMap(ReminderBook, (book) => book.ofSession(sessionId))
      expect(yield* ReminderIntake.takePlan(asked!.planId, sessionId)).toBe(0)
      expect(yield* ReminderIntake.takePlan(asked!.planId, sessionId)).toBe(0)
      const passed = `The time I read for this reminder had already passed: "${first}"\nWhen should I remind you?`
      const calls = yield* eventually(telegramCalls, (all) => sentTexts(all).includes(passed))
      yield* Effect.sleep("300 millis")
      expect(sentTexts(yield* telegramCalls)).toEqual([sentTexts(calls)[0], passed])
      expect(reminderTags(yield* eventLog)).toEqual(["ReminderTimeAsked", "RemindersTaken"])
    }).pipe(Effect.scoped, Effect.provide(layer([planStep(plan([{ seq: 1, quote: first, due: "2019-01-01T09:00" }]))]))), 60_000)

  it.live("a promoted replay whose plans no longer ask for a reminder cancels it and says so; one the sender rescheduled stays as they left it", () =>
    Effect.gen(function*() {
      yield* running
      yield* capture
      yield* eventually(eventLog, (lines) => reminderTags(lines).includes("RemindersTaken"))
      yield* client((c) => c.reminders.rescheduleReminder({ path: { id: secondId }, payload: { due: "2031-05-06T10:00" } }))
      const sessionId = SessionId.make("telegram:100000001:100000001:1")
      expect(yield* Effect.flatMap(PlanJob, (job) => job.run(sessionId, { replan: true }))).toBe("planned")
      const told = `After an update to how your messages are filed, this is no longer a reminder:\n“${first}”\nAsk again in a message if you still want to be reminded.`
      yield* eventually(telegramCalls, (all) => sentTexts(all).includes(told))
      const log = yield* eventually(eventLog, (lines) => reminderTags(lines).filter((t) => t === "RemindersTaken").length === 2)
      expect(reminderTags(log)).toEqual(["ReminderScheduled", "ReminderScheduled", "RemindersTaken", "ReminderRescheduled", "ReminderCancelled", "RemindersTaken"])
      const all = yield* remindersOf("telegram:100000001")
      expect(all.items.map((r) => [r.id, r.status, r.dueLocal])).toEqual([[firstId, "cancelled", "2030-01-02T09:00"], [secondId, "scheduled", "2031-05-06T10:00"]])
    }).pipe(
      Effect.scoped,
      Effect.provide(layer([
        planStep(plan([{ seq: 1, quote: first, due: "2030-01-02T09:00" }, { seq: 1, quote: second, due: "2030-01-03T09:00" }])),
        planStep(plan([]))
      ]))
    ), 60_000)
})
