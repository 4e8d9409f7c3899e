/** Recording plans: the raw plan, every decision derived from it, the people it adds and the replies, at once. */
import { describe, it } from "@effect/vitest"
import { rejected } from "../../src/Session/Commands.js"
import {
  directive,
  instruction,
  noteRecorded,
  personAdded,
  planApplied,
  planFailed,
  planProduced,
  questionAnswered,
  questionParked,
  questionWithdrawn,
  replyQueued
} from "./Decided.js"
import { chunk, closedSession, edited, person, personId, plan, recordPlans, spec, unattached } from "./fixtures.js"

const messages = [
  "Ana loves jazz. Remind me on Friday",
  "Bob moved to Lisbon",
  "Maybe Carla or Dana will come",
  "/help",
  "My own idea: a garden"
]

const wholePlan = plan({
  people: [
    { contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: ["Remind me on Friday"] }] },
    { contactId: "person-bob", name: "Bob", notes: [{ sourceItemSeqs: [2], directives: [] }] }
  ],
  unattached: [{ sourceItemSeqs: [5], directives: [] }],
  unclear: [{ sourceItemSeqs: [3], candidates: ["Dana", "Carla"] }],
  botMessages: [4]
})

const choices = (question: string, ...labels: ReadonlyArray<string>) =>
  labels.map((label, index) => ({ label, data: `a:${question}:${index}` }))

describe("RecordPlans", () => {
  it("records a whole plan: people, notes, the question and its reply, instructions, and the summary", () => {
    spec.given(closedSession(...messages))
      .when(recordPlans([chunk(wholePlan, 1, 5)], 7, { known: [{ personId: personId("person-bob"), name: "Bob" }] }))
      .then([
        personAdded("person_1", "Ana"),
        planProduced("plan_1", wholePlan, 1, 5),
        noteRecorded("note_1", person("Ana"), "person_1", [1], { directives: [directive(1, "Remind me on Friday")] }),
        noteRecorded("note_2", person("Bob", "person-bob"), "person-bob", [2]),
        noteRecorded("note_3", unattached, null, [5]),
        questionParked("q_1", "plan_1", "unclear", [3], [person("Carla"), person("Dana")]),
        instruction("plan_1", 1, "directive", "Remind me on Friday"),
        instruction("plan_1", 4, "message", "/help"),
        planApplied("plan_1", ["note_1", "note_2", "note_3"], ["q_1"]),
        replyQueued(
          "reply_1",
          "Added 3 notes: Ana, Bob, your own notes. 1 question.\nTaken as meant for me, so kept out of the notes: “Remind me on Friday”, “/help”."
        ),
        replyQueued(
          "reply_2",
          "Who is this about?\n\n«Maybe Carla or Dana will come»",
          choices("q_1", "Carla", "Dana", "Keep as my own note"),
          "q_1"
        )
      ])
  })

  it("refuses to plan a session still open", () => {
    spec.given(closedSession("one").slice(0, 2)).when(recordPlans([chunk(plan({ unattached: [{ sourceItemSeqs: [1], directives: [] }] }), 1, 1)], 2))
      .thenRejects(rejected("not-closed", "not-closed"))
  })

  it("refuses to plan a planned session again unless it is a re-plan", () => {
    const mine = plan({ unattached: [{ sourceItemSeqs: [1], directives: [] }] })
    spec.given([...closedSession("one"), planProduced("plan_1", mine, 1, 1), noteRecorded("note_1", unattached, null, [1]), planApplied("plan_1", ["note_1"])])
      .when(recordPlans([chunk(mine, 1, 1)], 6))
      .thenRejects(rejected("already-planned", "already-planned"))
  })

  it("refuses a plan decided before something other than an edit happened", () => {
    spec.given([...closedSession("one"), planFailed("timeout", 1, "timed out")])
      .when(recordPlans([chunk(plan({ unattached: [{ sourceItemSeqs: [1], directives: [] }] }), 1, 1)], 3))
      .thenRejects(rejected("stale", "stale"))
  })

  it("records a plan decided before an edit, with the text as it stands", () => {
    const unclear = plan({ unclear: [{ sourceItemSeqs: [1], candidates: ["Ana"] }] })
    spec.given([...closedSession("Ana or Bob?"), edited(1, "Ana or Carla?", 700)])
      .when(recordPlans([chunk(unclear, 1, 1)], 3))
      .then([
        planProduced("plan_1", unclear, 1, 1),
        questionParked("q_1", "plan_1", "unclear", [1], [person("Ana")]),
        planApplied("plan_1", [], ["q_1"]),
        replyQueued("reply_1", "Added no notes. 1 question."),
        replyQueued("reply_2", "Who is this about?\n\n«Ana or Carla?»", choices("q_1", "Ana", "Keep as my own note"), "q_1")
      ])
  })

  it("supersedes every applied plan on the first chunk of a re-plan only, whatever the new chunking", () => {
    const firstTwo = plan({ unattached: [{ sourceItemSeqs: [1, 2], directives: [] }] })
    const third = plan({ unattached: [{ sourceItemSeqs: [3], directives: [] }] })
    const history = [
      ...closedSession("one", "two", "three"),
      planProduced("plan_a", firstTwo, 1, 2),
      noteRecorded("note_a", unattached, null, [1, 2], { plan: "plan_a" }),
      planApplied("plan_a", ["note_a"]),
      planProduced("plan_b", third, 3, 3),
      noteRecorded("note_b", unattached, null, [3], { plan: "plan_b" }),
      planApplied("plan_b", ["note_b"])
    ]
    const one = plan({ people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] }] })
    const rest = plan({ unattached: [{ sourceItemSeqs: [2, 3], directives: [] }] })
    spec.given(history).when(recordPlans([chunk(one, 1, 1), chunk(rest, 2, 3)], 11, { replan: true })).then([
      personAdded("person_1", "Ana"),
      planProduced("plan_1", one, 1, 1, ["plan_a", "plan_b"]),
      noteRecorded("note_1", person("Ana"), "person_1", [1]),
      planApplied("plan_1", ["note_1"]),
      planProduced("plan_2", rest, 2, 3),
      noteRecorded("note_2", unattached, null, [2, 3], { plan: "plan_2" }),
      planApplied("plan_2", ["note_2"]),
      replyQueued("reply_1", "Added 2 notes: Ana, your own notes.")
    ])
  })

  it("withdraws the open question a failed plan parked", () => {
    const mine = plan({ unattached: [{ sourceItemSeqs: [1, 2], directives: [] }] })
    spec.given([
      ...closedSession("one", "two"),
      planFailed("overloaded", 1, "overloaded"),
      questionParked("q_1", null, "failed", [1, 2]),
      replyQueued("reply_1", "kept safe")
    ]).when(recordPlans([chunk(mine, 1, 2)], 7)).then([
      questionWithdrawn("q_1"),
      planProduced("plan_1", mine, 1, 2),
      noteRecorded("note_1", unattached, null, [1, 2]),
      planApplied("plan_1", ["note_1"]),
      replyQueued("reply_1", "Added 1 note: your own notes.")
    ])
  })

  it("withdraws no question of a superseded plan: the plan it belongs to retires it", () => {
    const unclear = plan({ unclear: [{ sourceItemSeqs: [1], candidates: ["Ana"] }] })
    const mine = plan({ unattached: [{ sourceItemSeqs: [1], directives: [] }] })
    spec.given([
      ...closedSession("Ana or Bob?"),
      planProduced("plan_a", unclear, 1, 1),
      questionParked("q_a", "plan_a", "unclear", [1], [person("Ana")]),
      planApplied("plan_a", [], ["q_a"])
    ]).when(recordPlans([chunk(mine, 1, 1)], 6, { replan: true })).then([
      planProduced("plan_1", mine, 1, 1, ["plan_a"]),
      noteRecorded("note_1", unattached, null, [1]),
      planApplied("plan_1", ["note_1"]),
      replyQueued("reply_1", "Added 1 note: your own notes.")
    ])
  })

  it("does not plan again the messages an answer filed", () => {
    const rest = plan({ unattached: [{ sourceItemSeqs: [1, 3], directives: [] }] })
    spec.given([
      ...closedSession("one", "two", "three"),
      planFailed("overloaded", 1, "overloaded"),
      questionParked("q_1", null, "failed", [2]),
      questionAnswered("q_1", unattached),
      noteRecorded("note_a", unattached, null, [2], { plan: null, question: "q_1" })
    ]).when(recordPlans([chunk(rest, 1, 3)], 9)).then([
      planProduced("plan_1", rest, 1, 3),
      noteRecorded("note_1", unattached, null, [1, 3]),
      planApplied("plan_1", ["note_1"]),
      replyQueued("reply_1", "Added 1 note: your own notes.")
    ])
  })

  it("refuses to plan a session whose every message an answer filed", () => {
    spec.given([
      ...closedSession("one"),
      planFailed("overloaded", 1, "overloaded"),
      questionParked("q_1", null, "failed", [1]),
      questionAnswered("q_1", unattached),
      noteRecorded("note_a", unattached, null, [1], { plan: null, question: "q_1" })
    ]).when(recordPlans([chunk(plan({ unattached: [{ sourceItemSeqs: [1], directives: [] }] }), 1, 1)], 7))
      .thenRejects(rejected("already-planned", "already-planned"))
  })
})
