/**
 * Reminders on WhatsApp and its 24-hour window, against a fake Cloud API that refuses free-form
 * messages to a user who last wrote more than 24 hours ago (error 131047) and takes templates:
 * within the window a reminder is a message with its buttons; past it, the configured template
 * with the words as its parameter; with no template it is held, shown as such, and sent (late)
 * once the user writes again, unless a promoted replay no longer asks for it (then it is
 * cancelled and never sent). Driven step by step under the test clock.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan } from "@verbatim/domain/Plan"
import { FakeWhatsApp } from "@verbatim/testkit/FakeWhatsApp"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect, TestClock } from "effect"
import { SessionId } from "@verbatim/domain/Ids"
import { PlanJob } from "../src/Planning/PlanJob.js"
import { PlanTrigger } from "../src/Planning/PlanTrigger.js"
import * as ReminderDelivery from "../src/Reminders/Delivery.js"
import * as ReminderIntake from "../src/Reminders/Intake.js"
import { remindersOf } from "./apiClient.js"
import { drain, eventLog, Harness, layer, whatsApp } from "./harness.js"
import { reminderTags } from "./reminderSteps.js"

const to = "15550001111"
const quote = "Remind me to call Ana about the\nsublet."
const text = `Ana moves in May. ${quote}`
const start = Date.parse("2026-01-01T00:00:00Z")
const hour = 3_600_000

const message = (id: string, body: string) =>
  JSON.stringify({
    object: "whatsapp_business_account",
    entry: [{ id: "1", changes: [{ field: "messages", value: {
      messages: [{ from: to, id, timestamp: String((start + 0) / 1000), type: "text", text: { body } }]
    } }] }]
  })

const plan = planStep({
  ...emptyPlan,
  people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [quote] }] }],
  botMessages: [2],
  reminders: [{ seq: 1, quote, due: "2026-01-03T09:00" }]
})

const due = Date.parse("2026-01-03T09:00:00Z")

/** The message captured and filed on 1 January, its reminder (due 3 January 09:00) taken. */
const filed = Effect.gen(function*() {
  yield* TestClock.setTime(start)
  expect((yield* whatsApp(message("wamid.w1", text))).status).toBe(200)
  expect((yield* whatsApp(message("wamid.w2", "/done"))).status).toBe(200)
  yield* Effect.flatMap(PlanTrigger, (trigger) => trigger.catchUp)
  expect(yield* ReminderIntake.pass).toBe(1)
  yield* drain
})

/** Filed, then its due time come with the user's window closed. */
const dueWithWindowClosed = Effect.gen(function*() {
  yield* filed
  yield* TestClock.setTime(due)
  yield* Effect.flatMap(FakeWhatsApp, (fake) => fake.closeWindow(to))
})

const sentBodies = Effect.flatMap(FakeWhatsApp, (fake) => Effect.map(fake.calls, (calls) => calls.map((c) => c.body as Record<string, unknown>)))
const status = Effect.map(remindersOf(`whatsapp:${to}`), (list) => list.items)

describe("reminders and WhatsApp's 24-hour window", () => {
  it.effect("past the window, a reminder goes out as the configured template with its words as the parameter", () =>
    Effect.gen(function*() {
      yield* dueWithWindowClosed
      yield* ReminderDelivery.pass
      yield* drain
      const last = (yield* sentBodies).at(-1)
      expect(last).toEqual({
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to,
        type: "template",
        template: {
          name: "verbatim_reminder",
          language: { code: "pt_PT" },
          components: [{ type: "body", parameters: [{ type: "text", text: "Remind me to call Ana about the sublet." }] }]
        }
      })
      expect((yield* status).map((r) => r.status)).toEqual(["delivered"])
      expect(reminderTags(yield* eventLog)).toEqual(["ReminderScheduled", "RemindersTaken", "ReminderDelivered"])
    }).pipe(Effect.provide(layer([plan], { reminderTemplate: { name: "verbatim_reminder", language: "pt_PT" } }))))

  it.effect("past the window with no template, it is held; sent, late and with its buttons, once the user writes again", () =>
    Effect.gen(function*() {
      yield* dueWithWindowClosed
      const before = (yield* sentBodies).length
      yield* ReminderDelivery.pass
      yield* ReminderDelivery.pass
      yield* drain
      expect((yield* sentBodies).length).toBe(before)
      expect((yield* status).map((r) => r.status)).toEqual(["held"])
      // The user writes: the window is open again (the fake takes free-form messages from now on).
      yield* TestClock.adjust(2 * hour)
      yield* Effect.flatMap(FakeWhatsApp, (fake) => fake.openWindow(to))
      expect((yield* whatsApp(message("wamid.w3", "Hi"))).status).toBe(200)
      yield* ReminderDelivery.pass
      yield* ReminderDelivery.pass
      yield* drain
      const sent = (yield* sentBodies).slice(before)
      const { baseUrl } = yield* Harness
      const open = `${baseUrl}/notes/note_1?mark=whatsapp%3Awamid.w1%3A18-57`
      // WhatsApp has no link button beside reply buttons: the link is in the text.
      expect(sent.map((b) => (b["interactive"] as { body: { text: string } }).body.text)).toEqual([
        `Reminder: ${quote}\n\nFrom your message: ${text}\n\nIn your note about Ana: Ana moves in May.\nOpen: ${open}\n\nDue at 3 January 2026, 09:00 (UTC), sent late.`
      ])
      expect((yield* status)).toEqual([expect.objectContaining({ status: "delivered", late: true })])
      expect(reminderTags(yield* eventLog)).toEqual(["ReminderScheduled", "RemindersTaken", "ReminderHeld", "ReminderDelivered"])
    }).pipe(Effect.provide(layer([plan]))))

  it.effect("a held reminder a promoted replay no longer asks for is cancelled, and never sent when the user writes again", () =>
    Effect.gen(function*() {
      yield* dueWithWindowClosed
      yield* ReminderDelivery.pass
      expect((yield* status).map((r) => r.status)).toEqual(["held"])
      const sessionId = SessionId.make(`whatsapp:${to}:${to}:1`)
      expect(yield* Effect.flatMap(PlanJob, (job) => job.run(sessionId, { replan: true }))).toBe("planned")
      yield* ReminderIntake.pass
      expect((yield* status).map((r) => r.status)).toEqual(["cancelled"])
      const before = (yield* sentBodies).length
      yield* Effect.flatMap(FakeWhatsApp, (fake) => fake.openWindow(to))
      expect((yield* whatsApp(message("wamid.w3", "Hi"))).status).toBe(200)
      yield* ReminderDelivery.pass
      yield* drain
      const texts = (yield* sentBodies).slice(before).map((b) => (b["text"] as { body: string } | undefined)?.body ?? JSON.stringify(b))
      // The user is told the reminder is gone, in their words; the reminder itself never goes out.
      expect(texts).toEqual([
        "Added 1 note: Ana.",
        `After an update to how your messages are filed, this is no longer a reminder:\n“${quote}”\nAsk again in a message if you still want to be reminded.`
      ])
      expect(reminderTags(yield* eventLog)).toEqual(["ReminderScheduled", "RemindersTaken", "ReminderHeld", "ReminderCancelled", "RemindersTaken"])
    }).pipe(Effect.provide(layer([plan, planStep({ ...emptyPlan, people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] }], botMessages: [2] })]))))

  it.effect("within the window, it is a message with its buttons", () =>
    Effect.gen(function*() {
      yield* filed
      // The user wrote an hour before it fell due.
      yield* TestClock.setTime(due - hour)
      expect((yield* whatsApp(message("wamid.w3", "Hi"))).status).toBe(200)
      yield* TestClock.setTime(due)
      yield* ReminderDelivery.pass
      yield* drain
      const last = (yield* sentBodies).at(-1) as { type: string; interactive: { action: { buttons: ReadonlyArray<{ reply: { title: string } }> } } }
      expect({ type: last.type, buttons: last.interactive.action.buttons.map((b) => b.reply.title) }).toEqual({
        type: "interactive",
        buttons: ["Done", "Snooze 1 hour", "Tomorrow 09:00"]
      })
      expect((yield* status).map((r) => r.status)).toEqual(["delivered"])
    }).pipe(Effect.provide(layer([plan]))))
})
