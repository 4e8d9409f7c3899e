/** The steps reminders' end-to-end tests share: the background jobs running, a button pressed, what was sent and recorded. */
import { Effect } from "effect"
import { PlanTrigger } from "../src/Planning/PlanTrigger.js"
import * as Outbox from "../src/Providers/Outbox.js"
import * as ReminderDelivery from "../src/Reminders/Delivery.js"
import * as ReminderEdits from "../src/Reminders/Edits.js"
import * as ReminderIntake from "../src/Reminders/Intake.js"

/** The jobs reminders go through, each on its wake-ups (the polls are a minute, so a test sees wake-ups work). */
export const running = Effect.gen(function*() {
  yield* Effect.forkScoped(Outbox.runEvery("60 seconds"))
  yield* Effect.forkScoped(Effect.flatMap(PlanTrigger, (trigger) => trigger.follow("60 seconds")))
  yield* Effect.forkScoped(ReminderIntake.run)
  yield* Effect.forkScoped(ReminderDelivery.run)
  yield* Effect.forkScoped(ReminderEdits.run)
  yield* Effect.sleep("200 millis")
})

/** The texts of the messages sent to the fake Telegram, in order. */
export const sentTexts = (calls: ReadonlyArray<{ readonly method: string; readonly body: unknown }>) =>
  calls.filter((c) => c.method === "sendMessage").map((c) => (c.body as { text: string }).text)

/** Alice pressing the button whose data is `data`, on the bot's message `messageId`, as update `updateId`. */
export const press = (data: string, updateId = 800001, messageId = 9) =>
  JSON.stringify({
    update_id: updateId,
    callback_query: {
      id: `cb-${updateId}`,
      from: { id: 100000001, is_bot: false, first_name: "Alice" },
      chat_instance: "ci-1",
      message: { message_id: messageId, date: 1767225600, chat: { id: 100000001, type: "private" }, text: "Reminder" },
      data
    }
  })

/** The reminder events of the log's lines (`<position> <tag>`), in order. */
export const reminderTags = (lines: ReadonlyArray<string>) =>
  lines.map((line) => line.split(" ")[1] ?? "").filter((tag) => tag.startsWith("Reminder"))
