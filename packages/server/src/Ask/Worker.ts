/**
 * Answering questions as they are posed: woken when one is recorded (in this process, or heard
 * from another instance), and every 30 seconds besides for one missed. A question another
 * instance answers first is recorded once (the ask's stream takes one outcome).
 */
import { AskBook } from "@verbatim/projections/AskBook"
import { Wakeups } from "@verbatim/projections/Wakeups"
import { Effect } from "effect"
import { Asking } from "./Asking.js"

/** Questions answered at once: each is one model call. */
const concurrency = 4

/** Answer what is owed (posed questions, and replies of answered ones not yet queued); how many were looked at. */
export const pass = Effect.gen(function*() {
  const asking = yield* Asking
  const owed = yield* Effect.flatMap(AskBook, (book) => book.owed(50))
  yield* Effect.forEach(owed, (row) => asking.answer(row.askId), { concurrency, discard: true })
  return owed.length
})

/** Answer questions for as long as the service runs. */
export const run = Effect.flatMap(Wakeups, (wakeups) =>
  wakeups.loop(["AskPosed"], (looked: number) => (looked === 50 ? "1 second" : "30 seconds"), pass.pipe(
    Effect.catchAllCause((cause) => Effect.as(Effect.logError("the asks pass failed", cause), 0))
  )))
