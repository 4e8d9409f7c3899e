/** Answering a question: the chosen owner gets the parked messages as one note, once. */
import { describe, it } from "@effect/vitest"
import type { Owner } from "../../src/Decision.js"
import { rejected } from "../../src/Session/Commands.js"
import {
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
import {
  answer,
  closedSession,
  given,
  option,
  person,
  personId,
  plan,
  spec,
  stranger,
  unattached
} from "./fixtures.js"

const unclear = plan({
  people: [{ contactId: null, name: "Bob", notes: [{ sourceItemSeqs: [1], directives: [] }] }],
  unclear: [{ sourceItemSeqs: [2, 3], candidates: ["Carla", "Dana"] }]
})

/** Message 1 filed for Bob; 2 and 3 asked about, between Carla and Dana. */
const asked = [
  ...closedSession("Bob moved", "Carla or Dana?", "It was lovely"),
  planProduced("plan_1", unclear, 1, 3),
  noteRecorded("note_1", person("Bob"), "person-bob", [1]),
  questionParked("q_1", "plan_1", "unclear", [2, 3], [person("Carla"), person("Dana")]),
  planApplied("plan_1", ["note_1"], ["q_1"])
]

const ana = { personId: personId("person-ana"), name: "Ana" }

/** The events of filing q_1's messages for `owner`. */
const filed = (owner: Owner, personId: string | null) => [
  questionAnswered("q_1", owner),
  noteRecorded("note_1", owner, personId, [2, 3], { plan: null, question: "q_1" })
]

describe("Answer", () => {
  it("files the messages for the option chosen, adding the person new to the user", () => {
    spec.given(asked).when(answer("q_1", option(1))).then([personAdded("person_1", "Dana"), ...filed(person("Dana"), "person_1")])
  })

  it("files the messages as the user's own notes for the last option", () => {
    spec.given(asked).when(answer("q_1", option(2))).then(filed(unattached, null))
  })

  it("takes the operator's answer for any user's question", () => {
    spec.given(asked).when(answer("q_1", option(0), { asker: null })).then([personAdded("person_1", "Carla"), ...filed(person("Carla"), "person_1")])
  })

  it("files a given answer for a new person, a known person by name in any case, or a contact of the user's", () => {
    spec.given(asked).when(answer("q_1", given(person("Erin")), { known: [ana] })).then([
      personAdded("person_1", "Erin"),
      ...filed(person("Erin"), "person_1")
    ])
    spec.given(asked).when(answer("q_1", given(person("ANA")), { known: [ana] })).then(filed(person("ANA"), "person-ana"))
    spec.given(asked).when(answer("q_1", given(person("Annie", "person-ana")), { known: [ana] })).then(
      filed(person("Annie", "person-ana"), "person-ana")
    )
  })

  it("records a given name trimmed, and refuses a name of only spaces", () => {
    spec.given(asked).when(answer("q_1", given(person("  Erin\u00a0")), { known: [ana] })).then([
      personAdded("person_1", "Erin"),
      ...filed(person("Erin"), "person_1")
    ])
    spec.given(asked).when(answer("q_1", given(person(" \t "))))
      .thenRejects(rejected("no-such-option", "a person's name must not be empty"))
  })

  it("ignores a contact id that is not one of the user's: the name decides, and the id is not recorded", () => {
    spec.given(asked).when(answer("q_1", given(person("Zoe", "person-of-someone-else")), { known: [ana] })).then([
      personAdded("person_1", "Zoe"),
      ...filed(person("Zoe"), "person_1")
    ])
    spec.given(asked).when(answer("q_1", given(person("Ana", "person-of-someone-else")), { known: [ana] })).then(
      filed(person("Ana"), "person-ana")
    )
  })

  it("refuses a question the session does not have", () => {
    spec.given(asked).when(answer("q_9", option(0))).thenRejects(rejected("not-found", "not-found"))
    spec.given([]).when(answer("q_1", option(0))).thenRejects(rejected("not-found", "not-found"))
  })

  it("refuses another user's answer", () => {
    spec.given(asked).when(answer("q_1", option(0), { asker: stranger })).thenRejects(rejected("not-yours", "not-yours"))
  })

  it("refuses a question answered already", () => {
    spec.given([...asked, ...filed(unattached, null)]).when(answer("q_1", option(0))).thenRejects(
      rejected("already-answered", "already-answered")
    )
  })

  it("refuses a question a later plan withdrew", () => {
    const mine = plan({ unattached: [{ sourceItemSeqs: [1], directives: [] }] })
    spec.given([
      ...closedSession("one"),
      planFailed("overloaded", 1, "overloaded"),
      questionParked("q_1", null, "failed", [1]),
      replyQueued("reply_1", "kept safe"),
      questionWithdrawn("q_1"),
      planProduced("plan_1", mine, 1, 1),
      noteRecorded("note_1", unattached, null, [1]),
      planApplied("plan_1", ["note_1"])
    ]).when(answer("q_1", option(0))).thenRejects(rejected("withdrawn", "withdrawn"))
  })

  it("refuses a question one of whose messages a plan filed", () => {
    const mine = plan({ unattached: [{ sourceItemSeqs: [2], directives: [] }] })
    spec.given([
      ...closedSession("one", "two"),
      planFailed("overloaded", 1, "overloaded"),
      questionParked("q_1", null, "failed", [1, 2]),
      planProduced("plan_1", mine, 1, 2),
      noteRecorded("note_1", unattached, null, [2]),
      planApplied("plan_1", ["note_1"])
    ]).when(answer("q_1", option(0))).thenRejects(rejected("already-filed", "already-filed"))
  })

  it("refuses an option the question does not offer", () => {
    spec.given(asked).when(answer("q_1", option(3))).thenRejects(rejected("no-such-option", "no-such-option"))
  })
})
