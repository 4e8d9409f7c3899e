/**
 * Posing a question: recorded on its own stream before anything else happens, so a crash, a
 * model that is down or a redelivered webhook loses nothing and asks nothing twice. The worker
 * (`Worker.ts`) answers it; the web and the API wait for that answer (`awaitAnswer`).
 */
import { AskCommand, askDecider } from "@verbatim/domain/Ask/Decide"
import type { AskVia } from "@verbatim/domain/Ask/Events"
import type { AskId, Provider, UserId } from "@verbatim/domain/Ids"
import { askStream } from "@verbatim/domain/Streams"
import { AskBook, type AskRow } from "@verbatim/projections/AskBook"
import type { IdempotencyKey } from "@verbatim/projections/EventStore"
import { Wakeups } from "@verbatim/projections/Wakeups"
import { DateTime, type Duration, Effect, Option } from "effect"
import * as Runner from "../Runner.js"

export interface Posing {
  readonly askId: AskId
  readonly user: UserId
  readonly question: string
  readonly via: AskVia
  readonly provider: Provider | null
  readonly chat: string | null
}

/** Record the question; false when it (or the command under `keys`) was recorded before. */
export const pose = Effect.fn("Ask.pose")(function*(posing: Posing, keys: ReadonlyArray<IdempotencyKey> = []) {
  const now = yield* DateTime.now
  const done = yield* Runner.run(askDecider, askStream(posing.askId), () => Effect.succeed(AskCommand.Pose({ posed: { ...posing, postedAt: now } })), {
    keys,
    keep: false
  }).pipe(Effect.catchTag("Rejected", () => Effect.succeed(null)))
  return done?._tag === "Appended"
})

/** The question once it is answered or failed, waiting at most `within`; as it stands then. */
export const awaitAnswer = Effect.fn("Ask.awaitAnswer")(function*(askId: AskId, within: Duration.DurationInput) {
  const book = yield* AskBook
  const finished = book.get(askId).pipe(Effect.map(Option.exists((row: AskRow) => row.status !== "posed")))
  yield* Effect.flatMap(Wakeups, (wakeups) => wakeups.waitUntil(["AskFinished"], within, finished))
  return yield* book.get(askId)
})
