/** The plan job against the fake Messages API: replans, failures and answers leave every message exactly one disposition. */
import { describe, expect, it } from "@effect/vitest"
import { QuestionId, type SessionId } from "@verbatim/domain/Ids"
import { sessionAccounting } from "@verbatim/projections/Queries/Accounting"
import { FakeAnthropic } from "@verbatim/testkit"
import { Effect, Option } from "effect"
import * as Answers from "../src/Inbox/Answers.js"
import { PlanJob } from "../src/Planning/PlanJob.js"
import { closedSession, eventsAfterClose, PlanJobTest, text } from "./planJobHarness.js"

const { FakeReply } = FakeAnthropic

const messages = [
  text(1, "Alice said she is moving to Lisbon in March."),
  text(2, "She wants a quiet flat near the river."),
  text(3, "I should learn some Portuguese myself.")
]

const empty = { people: [], unattached: [], unclear: [], botMessages: [] }
const noteOf = (seqs: Array<number>) => ({ sourceItemSeqs: seqs, directives: [] })

const script = (...replies: ReadonlyArray<FakeAnthropic.FakeReply>) =>
  Effect.flatMap(FakeAnthropic.FakeAnthropic, (fake) => fake.script(...replies))

/** Every place each message is, counting notes, open questions and whole-message instructions. */
const places = (sessionId: SessionId) =>
  Effect.map(sessionAccounting(sessionId), (view) =>
    Option.getOrThrow(view).messages.map((m) =>
      `${m.seq}: ${m.dispositions.filter((d) => d._tag !== "Instruction" || d.kind === "message").map((d) => d._tag).join("+")}`
    ))

const tags = (events: ReadonlyArray<{ readonly _tag: string }>) => events.map((e) => e._tag)

describe("planning never files a message a second time", () => {
  it.live("a promotion whose model call fails leaves the live plan in force and parks nothing", () =>
    Effect.gen(function*() {
      const sessionId = yield* closedSession(...messages)
      yield* script(FakeReply.toolUse({ ...empty, people: [{ contactId: null, name: "Alice", notes: [noteOf([1, 2])] }], unattached: [noteOf([3])] }))
      const job = yield* PlanJob
      expect(yield* job.run(sessionId)).toBe("planned")
      const before = (yield* eventsAfterClose(sessionId)).length
      yield* script(FakeReply.refusal())
      expect(yield* job.run(sessionId, { promptVersion: "v1", replan: true })).toBe("failed")
      const after = (yield* eventsAfterClose(sessionId)).slice(before)
      // nothing but (at most) the failure itself
      expect(tags(after)).toEqual([])
      expect(yield* places(sessionId)).toEqual(["1: InNote", "2: InNote", "3: InNote"])
    }).pipe(Effect.provide(PlanJobTest)))

  it.live("a failed session whose parked question was answered is not filed a second time by a later plan", () =>
    Effect.gen(function*() {
      const sessionId = yield* closedSession(...messages)
      yield* script(FakeReply.refusal())
      const job = yield* PlanJob
      expect(yield* job.run(sessionId)).toBe("failed")
      const outcome = yield* Answers.answer(QuestionId.make("q_1"), { _tag: "Given", answer: { _tag: "Person", contactId: null, name: "Alice" } }, null)
      expect(outcome).toEqual({ _tag: "Filed", noteId: "note_1", label: "Alice" })
      expect(yield* places(sessionId)).toEqual(["1: InNote", "2: InNote", "3: InNote"])
      // the model is back; the scheduler re-runs sessions whose last attempt failed (failedSessions)
      yield* script(FakeReply.toolUse({ ...empty, unclear: [{ sourceItemSeqs: [1, 2, 3], candidates: ["Alice", "Bea"] }] }))
      yield* job.run(sessionId)
      expect(yield* places(sessionId)).toEqual(["1: InNote", "2: InNote", "3: InNote"])
    }).pipe(Effect.provide(PlanJobTest)))

  it.live("promoting a re-plan after the user answered a question does not park the answered message again", () =>
    Effect.gen(function*() {
      const sessionId = yield* closedSession(...messages)
      const unclear2 = { ...empty, people: [{ contactId: null, name: "Alice", notes: [noteOf([1])] }], unattached: [noteOf([3])], unclear: [{ sourceItemSeqs: [2], candidates: ["Alice", "Bea"] }] }
      yield* script(FakeReply.toolUse(unclear2))
      const job = yield* PlanJob
      expect(yield* job.run(sessionId)).toBe("planned")
      const outcome = yield* Answers.answer("q_1" as QuestionId, { _tag: "Option", index: 0 }, null)
      expect(outcome).toEqual({ _tag: "Filed", noteId: "note_3", label: "Alice" })
      expect(yield* places(sessionId)).toEqual(["1: InNote", "2: InNote", "3: InNote"])
      yield* script(FakeReply.toolUse(unclear2))
      const promoted = yield* job.run(sessionId, { promptVersion: "v1", replan: true })
      expect({ promoted, places: yield* places(sessionId) }).toEqual({ promoted: "planned", places: ["1: InNote", "2: InNote", "3: InNote"] })
    }).pipe(Effect.provide(PlanJobTest)))

  it.live("a failed session whose parked question was answered is not planned again: no model call, no events", () =>
    Effect.gen(function*() {
      const fake = yield* FakeAnthropic.FakeAnthropic
      const sessionId = yield* closedSession(text(1, "Alice moves to Lisbon."), text(2, "Bea stays."))
      yield* fake.script(FakeReply.refusal())
      const job = yield* PlanJob
      expect(yield* job.run(sessionId)).toBe("failed")
      expect(yield* Answers.answer(QuestionId.make("q_1"), { _tag: "Given", answer: { _tag: "Unattached" } }, null)).toEqual({
        _tag: "Filed",
        noteId: "note_1",
        label: "Keep as my own note"
      })
      const before = (yield* eventsAfterClose(sessionId)).length
      yield* fake.script(FakeReply.toolUse({ people: [], unattached: [{ sourceItemSeqs: [1, 2], directives: [] }], unclear: [], botMessages: [] }))
      const outcome = yield* job.run(sessionId)
      expect({ outcome, calls: (yield* fake.requests).length, appended: (yield* eventsAfterClose(sessionId)).length - before })
        .toEqual({ outcome: "already-planned", calls: 1, appended: 0 })
    }).pipe(Effect.provide(PlanJobTest)))

  it.live("promoting one chunk over a live plan of two chunks supersedes both", () =>
    Effect.gen(function*() {
      const sessionId = yield* closedSession(...messages)
      // live: cut at max_tokens twice, so the session is split and planned as [1,2] and [3]
      yield* script(
        FakeReply.maxTokens({ people: [] }),
        FakeReply.maxTokens({ people: [] }),
        FakeReply.toolUse({ ...empty, people: [{ contactId: null, name: "Alice", notes: [noteOf([1, 2])] }] }),
        FakeReply.toolUse({ ...empty, unclear: [{ sourceItemSeqs: [3], candidates: ["Alice", "Bea"] }] })
      )
      const job = yield* PlanJob
      expect(yield* job.run(sessionId)).toBe("planned")
      expect(yield* places(sessionId)).toEqual(["1: InNote", "2: InNote", "3: InQuestion"])
      // promotion: the whole session fits one call
      yield* script(FakeReply.toolUse({ ...empty, people: [{ contactId: null, name: "Alice", notes: [noteOf([1, 2])] }], unattached: [noteOf([3])] }))
      const promoted = yield* job.run(sessionId, { promptVersion: "v1", replan: true })
      expect({ promoted, places: yield* places(sessionId) }).toEqual({ promoted: "planned", places: ["1: InNote", "2: InNote", "3: InNote"] })
    }).pipe(Effect.provide(PlanJobTest)))
})
