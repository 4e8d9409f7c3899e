/**
 * What every signed-in page says while messages cannot be filed: no model is configured, or
 * planning is held on an operator's error. Without it a first run files nothing and no page says
 * why ("Filing now…" forever).
 */
import type { UserId } from "@verbatim/domain/Ids"
import { Jobs } from "@verbatim/projections/Jobs"
import { Effect, Option } from "effect"
import { PlanJob } from "../Planning/PlanJob.js"
import { PlanningHold, reasonOf } from "../Planning/PlanningHold.js"

/** The most waiting messages the banner counts; past it, it says "more than". */
export const countedUpTo = 10_000

/** How many messages wait, said as a number up to `countedUpTo`. */
export const waitingSafe = (waiting: number): string =>
  waiting > countedUpTo
    ? `More than ${countedUpTo.toLocaleString("en")} of your messages are safe`
    : `Your ${waiting === 1 ? "1 message is" : `${waiting.toLocaleString("en")} messages are`} safe`

/** The banner for `user`'s pages (the operator's, `undefined`, counts everyone's messages and says the provider's reason), or null when filing works. */
export const banner = (user: UserId | undefined) =>
  Effect.gen(function*() {
    const jobs = yield* PlanJob
    const held = yield* Effect.flatMap(PlanningHold, (hold) => hold.current)
    if (jobs.configured && Option.isNone(held)) return null
    const waiting = yield* Effect.orDie(Effect.flatMap(Jobs, (read) => read.awaitingPlan(user, countedUpTo + 1)))
    // The provider's own words are for the operator; a user is told whose move it is.
    const why = Option.match(held, {
      onNone: () => "no model key is set",
      onSome: (h) => (user === undefined ? reasonOf(h) : "the model's settings need the operator's attention")
    })
    const until = Option.isNone(held) ? "once it is" : "once that is fixed"
    const safe = waiting === 0
      ? `What you send is kept, and will be filed ${until}.`
      : `${waitingSafe(waiting)}, and will be filed ${until}.`
    return `Not filed yet: ${why}. ${safe}`
  })
