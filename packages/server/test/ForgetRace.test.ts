/**
 * Forgetting while a session is planned: the plan, decided before the forgetting, is refused when
 * it lands (the session moved on), and the plan made after files nothing of the forgotten message.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Event } from "@verbatim/domain/Events"
import { MessageId, SessionId } from "@verbatim/domain/Ids"
import { emptyPlan } from "@verbatim/domain/Plan"
import { EventStore } from "@verbatim/projections/EventStore"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { forget } from "../src/Forget/Forgetting.js"
import { PlanJob } from "../src/Planning/PlanJob.js"
import { accountingOf } from "./apiClient.js"
import { aliceUpdate, capturedTexts, layer, noteBody, telegram } from "./harness.js"

const sessionId = SessionId.make("telegram:100000001:100000001:1")
/** Run once before the next append that records a plan, then forgotten. */
let beforePlanAppends: Effect.Effect<void> | null = null

const racing = (store: EventStore["Type"]): EventStore["Type"] =>
  EventStore.of({
    ...store,
    append: (stream, version, events: ReadonlyArray<Event>, options) => {
      const hook = beforePlanAppends
      if (hook === null || !events.some((e) => e._tag === "PlanProduced")) return store.append(stream, version, events, options)
      beforePlanAppends = null
      return Effect.zipRight(hook, store.append(stream, version, events, options))
    }
  })

const everything = planStep({ ...emptyPlan, unattached: [{ sourceItemSeqs: [1, 2, 3], directives: [] }] })

describe("forgetting racing a plan", () => {
  it.live("a plan decided before the forgetting files nothing of the forgotten message", () =>
    Effect.gen(function*() {
      yield* telegram(aliceUpdate(11, { text: "Ana moved to Porto." }))
      yield* telegram(aliceUpdate(12, { text: "Zephyrine keeps the spare key under the blue pot" }))
      yield* telegram(aliceUpdate(13, { text: "Bob owes me lunch" }))
      yield* telegram(aliceUpdate(14, { text: "/done" }))
      const job = yield* PlanJob
      const context = yield* Effect.context<Effect.Effect.Context<ReturnType<typeof forget>>>()
      // The message is forgotten between the plan's decision and its append.
      beforePlanAppends = Effect.orDie(Effect.provide(forget({ _tag: "Message", messageId: MessageId.make("telegram:100000001:12") }, null, null), context))
      expect(yield* job.run(sessionId)).toEqual("busy")
      expect(yield* job.run(sessionId)).toEqual("planned")
      const accounting = yield* accountingOf(sessionId)
      expect(accounting.messages.map((m) => `${m.seq}: ${m.dispositions.map((d) => d._tag).join("+")}`)).toEqual(["1: InNote", "2: Erased", "3: InNote"])
      const first = accounting.messages[0]!.dispositions[0]!
      expect(yield* noteBody(first._tag === "InNote" ? first.noteId : "")).toEqual("Ana moved to Porto.\n\nBob owes me lunch")
      expect(yield* capturedTexts).toEqual(["Ana moved to Porto.", "", "Bob owes me lunch"])
    }).pipe(Effect.provide(layer([everything, everything], { eventStore: racing }))), 30_000)
})
