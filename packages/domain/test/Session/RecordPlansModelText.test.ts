/** Model text in a recorded plan: cleaned before it is stored, and replies cut to what the provider delivers. */
import { describe, it } from "@effect/vitest"
import { noteRecorded, personAdded, planApplied, planProduced, questionParked, replyQueued } from "./Decided.js"
import { chunk, closedSession, person, plan, recordPlans, spec, unattached } from "./fixtures.js"

const repaired = {
  code: "model-text-repaired" as const,
  seqs: [],
  message: "Some of the plan's text could not be stored as given (U+0000 or a broken character), so it was cleaned first."
}

describe("RecordPlans with model text", () => {
  it("records model text with U+0000 or a lone surrogate cleaned, in the decisions and in the raw plan, with a warning", () => {
    const broken = plan({
      people: [{ contactId: null, name: "A\u0000na", notes: [{ sourceItemSeqs: [1], directives: [] }] }],
      unclear: [{ sourceItemSeqs: [2], candidates: ["Bo\uD800b"] }]
    })
    const raw = { ...broken, thinking: "sure\uDC00" }
    const cleaned = {
      ...plan({
        people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] }],
        unclear: [{ sourceItemSeqs: [2], candidates: ["Bo\uFFFDb"] }]
      }),
      thinking: "sure\uFFFD"
    }
    spec.given(closedSession("Ana sings", "Bob or someone?")).when(recordPlans([chunk(broken, 1, 2, raw)], 4)).then([
      personAdded("person_1", "Ana"),
      planProduced("plan_1", cleaned, 1, 2),
      noteRecorded("note_1", person("Ana"), "person_1", [1]),
      questionParked("q_1", "plan_1", "unclear", [2], [person("Bo\uFFFDb")]),
      planApplied("plan_1", ["note_1"], ["q_1"], [repaired]),
      replyQueued("reply_1", "Added 1 note: Ana. 1 question."),
      replyQueued("reply_2", "Who is this about?\n\n«Bob or someone?»", [{ label: "Bo\uFFFDb", data: "a:q_1:0" }, { label: "Keep as my own note", data: "a:q_1:1" }], "q_1")
    ])
  })

  it("warns when only the raw plan needed cleaning", () => {
    const mine = plan({ unattached: [{ sourceItemSeqs: [1], directives: [] }] })
    spec.given(closedSession("one")).when(recordPlans([chunk(mine, 1, 1, { ...mine, note: "\u0000" })], 3)).then([
      planProduced("plan_1", { ...mine, note: "" }, 1, 1),
      noteRecorded("note_1", unattached, null, [1]),
      planApplied("plan_1", ["note_1"], [], [repaired]),
      replyQueued("reply_1", "Added 1 note: your own notes.")
    ])
  })

  it("cuts a reply longer than the provider delivers to its limit", () => {
    const name = "A".repeat(5000)
    const long = plan({ people: [{ contactId: null, name, notes: [{ sourceItemSeqs: [1], directives: [] }] }] })
    spec.given(closedSession("one")).when(recordPlans([chunk(long, 1, 1)], 3)).then([
      personAdded("person_1", name),
      planProduced("plan_1", long, 1, 1),
      noteRecorded("note_1", person(name), "person_1", [1]),
      planApplied("plan_1", ["note_1"]),
      replyQueued("reply_1", `Added 1 note: ${name}`.slice(0, 4095) + "…")
    ])
  })
})
