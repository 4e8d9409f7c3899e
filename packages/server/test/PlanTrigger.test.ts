/** Planning from the log: a failed run is tried again on its backoff even when nothing new is written. */
import { describe, expect, it } from "@effect/vitest"
import type { SessionId } from "@verbatim/domain/Ids"
import { FakeAnthropic } from "@verbatim/testkit"
import { Data, Effect, Schedule } from "effect"
import { PlanTrigger } from "../src/Planning/PlanTrigger.js"
import { closedSession, eventsAfterClose, PlanJobTest, text } from "./planJobHarness.js"

const { FakeReply } = FakeAnthropic

const plan = {
  people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1, 2], directives: [] }] }],
  unattached: [],
  unclear: [],
  botMessages: []
}

const script = (...replies: ReadonlyArray<FakeAnthropic.FakeReply>) =>
  Effect.flatMap(FakeAnthropic.FakeAnthropic, (fake) => fake.script(...replies))

class NotYet extends Data.TaggedError("NotYet")<{ readonly tag: string }> {}

/** The session's events after its close, once they end with `tag` (polled, for at most `seconds`). */
const eventsOnceThere = (sessionId: SessionId, tag: string, seconds: number) =>
  eventsAfterClose(sessionId).pipe(
    Effect.map((events) => events.map((e) => e._tag)),
    Effect.filterOrFail((tags: ReadonlyArray<string>) => tags.includes(tag), () => new NotYet({ tag })),
    Effect.retry(Schedule.spaced("50 millis")),
    Effect.timeoutFail({ duration: `${seconds} seconds`, onTimeout: () => new NotYet({ tag }) })
  )

describe("PlanTrigger.follow", () => {
  it.scopedLive("retries a failed run on its backoff while the log stays quiet", () =>
    Effect.gen(function*() {
      const trigger = yield* PlanTrigger
      yield* Effect.forkScoped(trigger.follow("50 millis"))
      yield* script(FakeReply.overloaded(), FakeReply.overloaded(), FakeReply.overloaded(), FakeReply.toolUse(plan))
      const sessionId = yield* closedSession(text(1, "Ana moved to Porto."), text(2, "She starts at Acme."))
      expect(yield* eventsOnceThere(sessionId, "PlanFailed", 10)).toEqual(["PlanFailed", "QuestionParked", "ReplyQueued"])
      expect(yield* eventsOnceThere(sessionId, "PlanApplied", 10)).toEqual([
        "PlanFailed",
        "QuestionParked",
        "ReplyQueued",
        "PersonAdded",
        "QuestionWithdrawn",
        "PlanProduced",
        "NoteRecorded",
        "PlanApplied",
        "ReplyQueued"
      ])
    }).pipe(Effect.provide(PlanJobTest)))
})
