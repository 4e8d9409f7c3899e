/** A forgotten message's reminder is cancelled (`forgotten`), and its quote is gone from the reminders' read model. */
import { describe, expect, it } from "@effect/vitest"
import { MessageId, UserId } from "@verbatim/domain/Ids"
import { emptyPlan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { client } from "./apiClient.js"
import { eventually } from "./eventually.js"
import { aliceUpdate, eventLog, layer, telegram } from "./harness.js"
import { reminderTags, running } from "./reminderSteps.js"

const text = "Ana moves to Porto in May. Remind me to ask her about the flat tomorrow."
const quote = "Remind me to ask her about the flat tomorrow."

describe("forgetting a message with a reminder", () => {
  it.live("cancels the reminder its words set, and no quote of them is left", () =>
    Effect.gen(function*() {
      yield* running
      yield* telegram(aliceUpdate(1, { text }))
      yield* telegram(aliceUpdate(2, { text: "/done" }))
      yield* eventually(eventLog, (lines) => reminderTags(lines).includes("RemindersTaken"))
      yield* client((c) => c.forget.forgetMessage({ path: { id: MessageId.make("telegram:100000001:1") } }))
      const log = yield* eventually(eventLog, (lines) => reminderTags(lines).includes("ReminderCancelled"))
      expect(reminderTags(log)).toEqual(["ReminderScheduled", "RemindersTaken", "ReminderCancelled"])
      const listed = yield* client((c) => c.reminders.reminders({ urlParams: { user: UserId.make("telegram:100000001"), status: "cancelled" } }))
      expect(listed.items.map((r) => r.quote)).toEqual([""])
    }).pipe(Effect.scoped, Effect.provide(layer([planStep({
      ...emptyPlan,
      people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [quote] }] }],
      botMessages: [2],
      reminders: [{ seq: 1, quote, due: "2030-01-02T09:00" }]
    })]))), 60_000)
})
