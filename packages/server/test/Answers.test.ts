/** Answers: filed under the user's people as plans do, and never beside a plan that withdrew the question meanwhile. */
import { describe, expect, it } from "@effect/vitest"
import type { QuestionId, SessionId } from "@verbatim/domain/Ids"
import { EventStore } from "@verbatim/projections/EventStore"
import { sessionAccounting } from "@verbatim/projections/Queries/Accounting"
import { people } from "@verbatim/projections/Queries/Lists"
import { FakeAnthropic } from "@verbatim/testkit"
import { Effect, Option } from "effect"
import * as Answers from "../src/Inbox/Answers.js"
import { PlanJob } from "../src/Planning/PlanJob.js"
import { closedSession, eventsAfterClose, PlanJobTest, text } from "./planJobHarness.js"

const { FakeReply } = FakeAnthropic

/** A plan that files seq 1 under `name` (person_1) and asks about seq 2, `name` or Bea. */
const plannedWith = (name: string) =>
  Effect.gen(function*() {
    const sessionId = yield* closedSession(text(1, `${name} moved to Lisbon.`), text(2, "Someone called about the flat."))
    yield* Effect.flatMap(FakeAnthropic.FakeAnthropic, (fake) =>
      fake.script(FakeReply.toolUse({
        people: [{ contactId: null, name, notes: [{ sourceItemSeqs: [1], directives: [] }] }],
        unattached: [],
        unclear: [{ sourceItemSeqs: [2], candidates: [name, "Bea"] }],
        botMessages: []
      })))
    expect(yield* (yield* PlanJob).run(sessionId)).toBe("planned")
    return sessionId
  })

const names = Effect.map(people({ limit: 100 }), (page) => page.items.map((p) => `${p.id}=${p.name}`))

const answeredNote = (sessionId: SessionId) =>
  Effect.map(eventsAfterClose(sessionId), (events) =>
    events.flatMap((e) => (e._tag === "NoteRecorded" && e.questionId !== null ? [{ owner: e.owner, personId: e.personId }] : [])))

describe("answers resolve people as plans do", () => {
  it.live("a name differing only in case (any script) is the same person", () =>
    Effect.gen(function*() {
      const sessionId = yield* plannedWith("Émile")
      const given = { _tag: "Person", contactId: null, name: "émile" } as const
      expect(yield* Answers.answer("q_1" as QuestionId, { _tag: "Given", answer: given }, null)).toEqual({ _tag: "Filed", noteId: "note_2", label: "émile" })
      expect(yield* names).toEqual(["person_1=Émile"])
      expect(yield* answeredNote(sessionId)).toEqual([{ owner: given, personId: "person_1" }])
    }).pipe(Effect.provide(PlanJobTest)))

  it.live("a contact id that is not one of the user's is ignored: the name decides, and the id is not recorded", () =>
    Effect.gen(function*() {
      const sessionId = yield* plannedWith("Ana")
      const given = { _tag: "Person", contactId: "person_999", name: "Ana" } as const
      expect(yield* Answers.answer("q_1" as QuestionId, { _tag: "Given", answer: given }, null)).toEqual({ _tag: "Filed", noteId: "note_2", label: "Ana" })
      expect(yield* names).toEqual(["person_1=Ana"])
      expect(yield* answeredNote(sessionId)).toEqual([{ owner: { ...given, contactId: null }, personId: "person_1" }])
      const answered = (yield* eventsAfterClose(sessionId)).flatMap((e) => (e._tag === "QuestionAnswered" ? [e.answer] : []))
      expect(answered).toEqual([{ ...given, contactId: null }])
    }).pipe(Effect.provide(PlanJobTest)))
})

describe("an answer racing a plan", () => {
  it.live("a question withdrawn by a plan while it was being answered files nothing", () =>
    Effect.gen(function*() {
      const fake = yield* FakeAnthropic.FakeAnthropic
      const sessionId = yield* closedSession(text(1, "Ana moved."), text(2, "Bea stayed."))
      yield* fake.script(FakeReply.refusal())
      const job = yield* PlanJob
      expect(yield* job.run(sessionId)).toBe("failed")
      yield* fake.script(FakeReply.toolUse({ people: [], unattached: [], unclear: [{ sourceItemSeqs: [1, 2], candidates: ["Ana", "Bea"] }], botMessages: [] }))
      const store = yield* EventStore
      // The retry plans the session (withdrawing q_1, parking q_2) between the answer's decision and its append.
      const racing = EventStore.of({ ...store, append: (s, v, e, o) => Effect.zipRight(job.run(sessionId), store.append(s, v, e, o)) })
      const outcome = yield* Answers.answer("q_1" as QuestionId, { _tag: "Given", answer: { _tag: "Unattached" } }, null).pipe(
        Effect.provideService(EventStore, racing)
      )
      const view = Option.getOrThrow(yield* sessionAccounting(sessionId))
      expect({ outcome: outcome._tag, places: view.messages.map((m) => `${m.seq}: ${m.dispositions.map((d) => d._tag).join("+")}`) })
        .toEqual({ outcome: "Withdrawn", places: ["1: InQuestion", "2: InQuestion"] })
      expect(Answers.outcomeText(outcome)).toBe("That question was withdrawn: a later plan filed those messages; nothing changed.")
    }).pipe(Effect.provide(PlanJobTest)))
})
