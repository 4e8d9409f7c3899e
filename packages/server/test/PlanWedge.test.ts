/**
 * The session path never wedges: a model answer the store cannot keep, or any plan the store
 * refuses, ends as a recorded outcome with every message in one place, and planning does not
 * call the model again in a loop.
 */
import { describe, expect, it } from "@effect/vitest"
import { QuestionId, type SessionId, UserId } from "@verbatim/domain/Ids"
import { EventStore, StoreError } from "@verbatim/projections/EventStore"
import { Database, FakeAnthropic } from "@verbatim/testkit"
import { Effect, Layer } from "effect"
import * as Answers from "../src/Inbox/Answers.js"
import { PlanJob } from "../src/Planning/PlanJob.js"
import { PlanTrigger } from "../src/Planning/PlanTrigger.js"
import { closedSession, dispositions, eventsAfterClose, planJobLayer, text } from "./planJobHarness.js"

const { FakeReply } = FakeAnthropic

const script = (...replies: ReadonlyArray<FakeAnthropic.FakeReply>) =>
  Effect.flatMap(FakeAnthropic.FakeAnthropic, (fake) => fake.script(...replies))
const calls = Effect.flatMap(FakeAnthropic.FakeAnthropic, (fake) => Effect.map(fake.requests, (r) => r.length))
const run = (sessionId: SessionId) => Effect.flatMap(PlanJob, (job) => job.run(sessionId))
const catchUp = Effect.flatMap(PlanTrigger, (trigger) => trigger.catchUp)

/** A plan naming a person and a candidate with text no store keeps exactly (U+0000, a lone surrogate). */
const hostilePlan = {
  people: [{ contactId: null, name: "Ana\u0000 Souza", notes: [{ sourceItemSeqs: [1], directives: [] }] }],
  unattached: [],
  unclear: [{ sourceItemSeqs: [2], candidates: ["Bea\uD800", "Ana\u0000 Souza"] }],
  botMessages: []
}

const repaired = {
  code: "model-text-repaired",
  seqs: [],
  message: "Some of the plan's text could not be stored as given (U+0000 or a broken character), so it was cleaned first."
}

describe.each([
  { backend: "SQLite", database: () => Database.sqlite() },
  { backend: "PostgreSQL", database: () => Database.pg }
])("a model answer the store cannot keep, on $backend", ({ database }) => {
  it.live("is recorded cleaned, with a warning, and planned once; a press of a cleaned candidate files", () =>
    Effect.gen(function*() {
      const sessionId = yield* closedSession(text(1, "Ana moved to Porto."), text(2, "Her sister called."))
      yield* script(FakeReply.toolUse(hostilePlan))
      expect(yield* catchUp).toBe(1)
      const events = yield* eventsAfterClose(sessionId)
      expect(events.flatMap((e) => (e._tag === "PersonAdded" ? [e.name] : []))).toEqual(["Ana Souza"])
      expect(events.flatMap((e) => (e._tag === "QuestionParked" ? [e.candidates] : []))).toEqual([[
        { _tag: "Person", contactId: null, name: "Ana Souza" },
        { _tag: "Person", contactId: null, name: "Bea\uFFFD" }
      ]])
      expect(events.flatMap((e) => (e._tag === "PlanProduced" ? [e.plan] : []))).toEqual([{
        ...hostilePlan,
        people: [{ ...hostilePlan.people[0]!, name: "Ana Souza" }],
        unclear: [{ sourceItemSeqs: [2], candidates: ["Bea\uFFFD", "Ana Souza"] }]
      }])
      expect(events.flatMap((e) => (e._tag === "PlanApplied" ? [e.warnings] : []))).toEqual([[repaired]])
      expect(yield* dispositions(sessionId)).toEqual(["1: InNote", "2: InQuestion"])
      expect(yield* catchUp).toBe(0)
      expect(yield* calls).toBe(1)
      // A press of the cleaned candidate's button files the message (the sender is the question's user).
      expect(yield* Answers.answer(QuestionId.make("q_1"), { _tag: "Option", index: 1 }, UserId.make("telegram:100000001"))).toEqual({
        _tag: "Filed",
        noteId: "note_2",
        label: "Bea\uFFFD"
      })
      expect(yield* dispositions(sessionId)).toEqual(["1: InNote", "2: InNote"])
    }).pipe(Effect.provide(planJobLayer(database()))))
})

/** A store that refuses every append carrying a plan (as PostgreSQL refuses text it cannot keep). */
const refusingPlans = (store: EventStore["Type"]): EventStore["Type"] =>
  EventStore.of({
    ...store,
    append: (stream, version, events, options) =>
      events.some((e) => e._tag === "PlanProduced")
        ? Effect.fail(new StoreError({ reason: "sql", message: "invalid byte sequence for encoding \"UTF8\": 0x00" }))
        : store.append(stream, version, events, options)
  })

describe("a plan the store refuses", () => {
  it.live("is a recorded failure: the messages parked once, the user told, and no model call in a loop", () =>
    Effect.gen(function*() {
      const sessionId = yield* closedSession(text(1, "Ana moved to Porto."))
      yield* script(FakeReply.toolUse({ ...hostilePlan, unclear: [] }), FakeReply.toolUse({ ...hostilePlan, unclear: [] }))
      expect(yield* catchUp).toBe(0)
      const events = yield* eventsAfterClose(sessionId)
      expect(events.map((e) => e._tag)).toEqual(["PlanFailed", "QuestionParked", "ReplyQueued"])
      expect(events[0]).toEqual({
        _tag: "PlanFailed",
        sessionId,
        reason: "store",
        attempt: 1,
        detail: "the store refused the plan: invalid byte sequence for encoding \"UTF8\": 0x00"
      })
      expect(yield* dispositions(sessionId)).toEqual(["1: InQuestion"])
      // The failure is recorded and its retry waits its backoff: catching up again calls no model.
      expect(yield* catchUp).toBe(0)
      expect(yield* calls).toBe(1)
      expect(yield* run(sessionId)).toBe("failed")
      expect((yield* eventsAfterClose(sessionId)).map((e) => e._tag)).toEqual(["PlanFailed", "QuestionParked", "ReplyQueued", "PlanFailed"])
    }).pipe(Effect.provide(Layer.fresh(planJobLayer(Database.sqlite(), refusingPlans)))))
})
