/**
 * A session whose planning keeps stopping the process (out of memory, killed mid-call) is not
 * planned forever: each run holds the session's lease, so a run that died leaves its lease to
 * lapse, and the run after the third such one parks the messages as a question instead of calling
 * the model. Other sessions plan as before; the operator's `retry` tries once more.
 */
import { describe, expect, it } from "@effect/vitest"
import { take } from "@verbatim/projections/Leases"
import { FakeAnthropic } from "@verbatim/testkit"
import { Effect } from "effect"
import { PlanJob, planLease } from "../src/Planning/PlanJob.js"
import { closedSession, dispositions, eventsAfterClose, PlanJobTest, text } from "./planJobHarness.js"
import { failedTold, parkedAsFailed, planFailed, replyQueued, source } from "./planJobEvents.js"

const { FakeReply } = FakeAnthropic

const own = { people: [], unattached: [{ sourceItemSeqs: [1, 2], directives: [] }], unclear: [], botMessages: [] }

const calls = Effect.flatMap(FakeAnthropic.FakeAnthropic, (fake) => Effect.map(fake.requests, (r) => r.length))

describe("planning that keeps stopping the process", () => {
  it.live("parks the session after the third run that died, calls no model for it again, and lets the others plan; retry tries once more", () =>
    Effect.gen(function*() {
      const jobs = yield* PlanJob
      const crashing = yield* closedSession(text(1, "A very long forwarded thread."), text(2, "And its second half."))
      // Three runs took the lease and died holding it: each lease lapsed unreleased.
      for (const owner of ["dead:1:0000", "dead:2:0000", "dead:3:0000"]) yield* take(planLease(crashing), owner, -1)
      expect(yield* jobs.run(crashing)).toBe("crashed")
      expect(yield* calls).toBe(0)
      const parked = [
        planFailed("crashed", 1, "planning this session stopped the process 3 times in a row"),
        parkedAsFailed("q_1", [source(1, 1), source(2, 2)]),
        replyQueued("reply_1", failedTold)
      ]
      expect(yield* eventsAfterClose(crashing)).toEqual(parked)
      expect(yield* dispositions(crashing)).toEqual(["1: InQuestion", "2: InQuestion"])

      // Found again (a restart, the user's next plan): nothing is tried and nothing appended.
      expect(yield* jobs.run(crashing)).toBe("crashed")
      expect(yield* calls).toBe(0)
      expect(yield* eventsAfterClose(crashing)).toEqual(parked)

      // Another session of the same sender plans as ever.
      const next = yield* closedSession(text(3, "Ana moved to Porto."), text(4, "She starts in May."))
      yield* Effect.flatMap(FakeAnthropic.FakeAnthropic, (fake) => fake.script(FakeReply.toolUse(own), FakeReply.toolUse(own)))
      expect(yield* jobs.run(next)).toBe("planned")
      expect(yield* dispositions(next)).toEqual(["1: InNote", "2: InNote"])

      // The operator's retry plans it, and the question parked for it is withdrawn.
      expect(yield* jobs.run(crashing, { afterCrashes: true })).toBe("planned")
      expect(yield* dispositions(crashing)).toEqual(["1: InNote", "2: InNote"])
      expect(yield* calls).toBe(2)
    }).pipe(Effect.provide(PlanJobTest)))
})
