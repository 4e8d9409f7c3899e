/** The service's background fibers: the scheduler and the reply outbox. */
import { Effect, Layer } from "effect"
import * as Outbox from "./Outbox.js"
import * as Scheduler from "./Scheduler.js"
import { ServerConfig } from "./ServerConfig.js"

/** The scheduler (close idle sessions, plan closed ones) every second and the outbox every two, for the scope's life. */
export const BackgroundLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const settings = yield* ServerConfig
    yield* Effect.forkScoped(Scheduler.run(settings.sessionIdle, "1 second"))
    yield* Effect.forkScoped(Outbox.runEvery("2 seconds"))
  })
)
