/** What the merge tests start from: Ana with two notes, Anna with one, Tom with one, all filed by one plan. */
import { emptyPlan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { aliceUpdate, closeIdle, layer, telegram } from "../harness.js"

const texts = ["Ana moved to Porto.", "Ana's sister is a nurse.", "Anna has a new dog.", "Tom plays chess."]

/** The harness whose model files the four messages: person_1 Ana, person_2 Anna, person_3 Tom. */
export const planned = layer([planStep({
  ...emptyPlan,
  people: [
    { contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }, { sourceItemSeqs: [2], directives: [] }] },
    { contactId: null, name: "Anna", notes: [{ sourceItemSeqs: [3], directives: [] }] },
    { contactId: null, name: "Tom", notes: [{ sourceItemSeqs: [4], directives: [] }] }
  ]
})])

/** The four messages sent and their session planned. */
export const filed = Effect.gen(function*() {
  for (const [i, text] of texts.entries()) yield* telegram(aliceUpdate(i + 1, { text }))
  yield* closeIdle
})
