/** The service's background fibers: closing idle sessions, planning closed ones, the reply outbox, the media worker, reminders, asks. */
import { Effect, Layer } from "effect"
import * as AskWorker from "./Ask/Worker.js"
import { scrubPending } from "./Forget/Scrubbing.js"
import * as MediaWorker from "./Media/Worker.js"
import * as Outbox from "./Providers/Outbox.js"
import { PlanTrigger } from "./Planning/PlanTrigger.js"
import * as ReminderDelivery from "./Reminders/Delivery.js"
import * as ReminderEdits from "./Reminders/Edits.js"
import * as ReminderIntake from "./Reminders/Intake.js"
import * as Scheduler from "./Scheduler.js"
import { ServerConfig } from "./ServerConfig.js"

/**
 * For the scope's life: idle sessions closed every second; closed sessions planned, replies sent
 * and attachments fetched and read as soon as their events are appended in this process
 * (`Wakeups`), and besides every 500 ms, 2 s and 2 s, for another instance's events and retries;
 * applied plans' reminders taken, reminders delivered at their time, and those an edit took the
 * words of cancelled; questions answered as they are asked; and once, at start, any forgetting a
 * crash cut short scrubbed to the end.
 */
export const BackgroundLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const settings = yield* ServerConfig
    yield* Effect.forkScoped(Scheduler.run(settings.sessionIdle, settings.webSessionIdle, "1 second"))
    yield* Effect.forkScoped(Effect.flatMap(PlanTrigger, (trigger) => trigger.follow("500 millis")))
    yield* Effect.forkScoped(Outbox.runEvery("2 seconds"))
    yield* Effect.forkScoped(MediaWorker.runEvery("2 seconds"))
    yield* Effect.forkScoped(ReminderIntake.run)
    yield* Effect.forkScoped(ReminderDelivery.run)
    yield* Effect.forkScoped(ReminderEdits.run)
    yield* Effect.forkScoped(AskWorker.run)
    yield* Effect.forkScoped(scrubPending.pipe(
      Effect.catchAllCause((cause) => Effect.logError("scrubbing a forgetting cut short failed; it is tried again at the next start", cause))
    ))
  })
)
