/** Owners resolved to the user's people: a contact id of theirs, else the name, else a new person, once. */
import { describe, expect, it } from "@effect/vitest"
import { countingIds } from "../../src/Ids.js"
import { resolver } from "../../src/Session/People.js"
import { noteRecorded, personAdded, planApplied, planProduced, questionParked, replyQueued } from "./Decided.js"
import { chunk, closedSession, person, personId, plan, recordPlans, spec, unattached, user } from "./fixtures.js"

const ana = { personId: personId("person-ana"), name: "Ana" }
const yulia = { personId: personId("person-yulia"), name: "  Юлия " }

describe("resolving owners", () => {
  it("finds a person by a contact id of the user's, whatever the name says", () => {
    const people = resolver([ana], user, countingIds())
    expect([people.resolve(person("Annie", "person-ana")), people.owner(person("Annie", "person-ana")), people.added])
      .toEqual([personId("person-ana"), person("Annie", "person-ana"), []])
  })

  it("finds a person by name, trimmed and in any case, in any script", () => {
    const people = resolver([ana, yulia], user, countingIds())
    expect([people.resolve(person(" aNA ")), people.resolve(person("ЮЛИЯ")), people.added]).toEqual([
      personId("person-ana"),
      personId("person-yulia"),
      []
    ])
  })

  it("adds a new name once, trimmed, however often and in whatever case it comes", () => {
    const people = resolver([ana], user, countingIds())
    expect([people.resolve(person(" Émile")), people.resolve(person("ÉMILE ")), people.resolve(unattached), people.added]).toEqual([
      personId("person_1"),
      personId("person_1"),
      null,
      [personAdded("person_1", "Émile")]
    ])
  })

  it("ignores a contact id that is not the user's: the name decides and the id is not recorded", () => {
    const people = resolver([ana], user, countingIds())
    expect([
      people.resolve(person("ana", "person-of-someone-else")),
      people.owner(person("ana", "person-of-someone-else")),
      people.owner(unattached),
      people.added
    ]).toEqual([personId("person-ana"), person("ana"), unattached, []])
  })
})

describe("people in a recorded plan", () => {
  it("adds a person named in two chunks once", () => {
    const first = plan({ people: [{ contactId: null, name: "Carla", notes: [{ sourceItemSeqs: [1], directives: [] }] }] })
    const second = plan({ people: [{ contactId: null, name: "Carla", notes: [{ sourceItemSeqs: [2], directives: [] }] }] })
    spec.given(closedSession("Carla sings", "Carla dances")).when(recordPlans([chunk(first, 1, 1), chunk(second, 2, 2)], 4)).then([
      personAdded("person_1", "Carla"),
      planProduced("plan_1", first, 1, 1),
      noteRecorded("note_1", person("Carla"), "person_1", [1]),
      planApplied("plan_1", ["note_1"]),
      planProduced("plan_2", second, 2, 2),
      noteRecorded("note_2", person("Carla"), "person_1", [2], { plan: "plan_2" }),
      planApplied("plan_2", ["note_2"]),
      replyQueued("reply_1", "Added 2 notes: Carla.")
    ])
  })

  it("names a person spelled two ways in two chunks once in the summary, as first spelled", () => {
    const first = plan({ people: [{ contactId: null, name: "Carla", notes: [{ sourceItemSeqs: [1], directives: [] }] }] })
    const second = plan({ people: [{ contactId: null, name: "carla ", notes: [{ sourceItemSeqs: [2], directives: [] }] }] })
    spec.given(closedSession("Carla sings", "Carla dances")).when(recordPlans([chunk(first, 1, 1), chunk(second, 2, 2)], 4)).then([
      personAdded("person_1", "Carla"),
      planProduced("plan_1", first, 1, 1),
      noteRecorded("note_1", person("Carla"), "person_1", [1]),
      planApplied("plan_1", ["note_1"]),
      planProduced("plan_2", second, 2, 2),
      noteRecorded("note_2", person("carla"), "person_1", [2], { plan: "plan_2" }),
      planApplied("plan_2", ["note_2"]),
      replyQueued("reply_1", "Added 2 notes: Carla.")
    ])
  })

  it("names two of the user's people who share a name once each", () => {
    const otherAna = { personId: personId("person-ana-2"), name: "Ana" }
    const twoAnas = plan({
      people: [
        { contactId: "person-ana", name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] },
        { contactId: "person-ana-2", name: "Ana", notes: [{ sourceItemSeqs: [2], directives: [] }] }
      ]
    })
    spec.given(closedSession("Ana sings", "Ana dances")).when(recordPlans([chunk(twoAnas, 1, 2)], 4, { known: [ana, otherAna] })).then([
      planProduced("plan_1", twoAnas, 1, 2),
      noteRecorded("note_1", person("Ana", "person-ana"), "person-ana", [1]),
      noteRecorded("note_2", person("Ana", "person-ana-2"), "person-ana-2", [2]),
      planApplied("plan_1", ["note_1", "note_2"]),
      replyQueued("reply_1", "Added 2 notes: Ana, Ana.")
    ])
  })

  it("records a candidate's contact id only when it is the user's", () => {
    const contested = plan({
      people: [
        { contactId: "person-of-someone-else", name: "Zoe", notes: [{ sourceItemSeqs: [1], directives: [] }] },
        { contactId: "person-ana", name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] }
      ]
    })
    spec.given(closedSession("She called")).when(recordPlans([chunk(contested, 1, 1)], 3, { known: [ana] })).then([
      planProduced("plan_1", contested, 1, 1),
      questionParked("q_1", "plan_1", "contested", [1], [person("Ana", "person-ana"), person("Zoe")]),
      planApplied("plan_1", [], ["q_1"], [{
        code: "contested",
        seqs: [1],
        message: "The plan gave message 1 to more than one owner, so it waits for your answer."
      }]),
      replyQueued("reply_1", "Added no notes. 1 question."),
      replyQueued("reply_2", "I could not tell who this is about.\n\n«She called»", [
        { label: "Ana", data: "a:q_1:0" },
        { label: "Zoe", data: "a:q_1:1" },
        { label: "Keep as my own note", data: "a:q_1:2" }
      ], "q_1")
    ])
  })
})
