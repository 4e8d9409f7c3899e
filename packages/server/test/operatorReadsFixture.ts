/**
 * Two users' notes for the operator-reads tests: the operator's own (`web:operator`, captured by
 * `POST /api/messages`: a note about Bea), and Alice's from Telegram (a note about Ana with an
 * instruction cut and its reminder taken, a question, a message to the bot), each planned. The ids are the
 * test id generator's, in the order the plans make them.
 */
import { emptyPlan, type Plan } from "@verbatim/domain/Plan"
import { EventStore, start } from "@verbatim/projections/EventStore"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { expect } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as ReminderIntake from "../src/Reminders/Intake.js"
import type { ServerSettings } from "../src/ServerConfig.js"
import { WebKeys } from "../src/Web/SignIn.js"
import { captureMessages } from "./apiClient.js"
import { aliceUpdate, closeIdle, layer, telegram } from "./harness.js"

export const alice = "telegram:100000001"
export const operatorSession = "web:web:operator:operator:1"
export const aliceSession = "telegram:100000001:100000001:1"

/** The ids the plans make: the operator's first, then Alice's. */
export const ids = {
  beaPerson: "person_1",
  beaNote: "note_1",
  anaPerson: "person_2",
  anaNote: "note_2",
  question: "q_1"
} as const

export const aliceTexts = [
  "Ana moved to Porto in May.",
  "She starts at the clinic on Monday, remind me on Sunday",
  "Ana or Tom, one of them has a cat.",
  "thanks bot"
]

const operatorPlan: Plan = { ...emptyPlan, people: [{ contactId: null, name: "Bea", notes: [{ sourceItemSeqs: [1], directives: [] }] }] }

const alicePlan: Plan = {
  ...emptyPlan,
  people: [{ contactId: null, name: "Ana Souza", notes: [{ sourceItemSeqs: [1, 2], directives: [", remind me on Sunday"] }] }],
  unclear: [{ sourceItemSeqs: [3], candidates: ["Ana", "Tom"] }],
  botMessages: [4],
  reminders: [{ seq: 2, quote: "remind me on Sunday", due: "2026-01-04T09:00" }]
}

/** The server with both users' notes to come, reading other users' notes as `mode` says. */
export const layerFor = (mode: ServerSettings["operatorReads"]) => layer([planStep(operatorPlan), planStep(alicePlan)], { settings: { operatorReads: mode } })

/** `layerFor` with the pages' keys, so a test can sign a user in with a cookie of its own. */
export const pagesLayerFor = (mode: ServerSettings["operatorReads"]) => WebKeys.layer.pipe(Layer.provideMerge(layerFor(mode)))

/** Both users' messages captured and planned. */
export const history = Effect.gen(function*() {
  yield* captureMessages([{ id: "b1", text: "Bea lends me her ladder on Friday." }])
  for (const [i, text] of aliceTexts.entries()) expect(yield* telegram(aliceUpdate(i + 1, { text }))).toEqual({ status: 200, body: "" })
  expect(yield* closeIdle).toEqual({ closed: 1, planned: 2 })
  expect(yield* ReminderIntake.pass).toBe(1)
})

/** Every `OperatorRead` in the log, as stream, version and payload (its time as ISO). */
export const operatorReads = Effect.flatMap(EventStore, (store) =>
  Effect.map(store.readPage(start, 10_000), (events) =>
    events.flatMap((e) =>
      e.event._tag === "OperatorRead"
        ? [{ stream: `${e.stream}#${e.version}`, kind: e.event.kind, route: e.event.route, ids: e.event.ids, user: e.event.user }]
        : []
    )))
