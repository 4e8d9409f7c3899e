/** The operator's reads: a user's reads stream takes every read; an item withheld keeps its shape, ids and counts, and no text. */
import { at, user } from "@verbatim/testkit/Given"
import { DeciderSpec } from "@verbatim/testkit/DeciderSpec"
import { describe, expect, it } from "@effect/vitest"
import { MessageId, NoteId, PersonId, PlanId, QuestionId, ReminderId, SessionId } from "../src/Ids.js"
import { OperatorReadCommand, operatorReadDecider } from "../src/OperatorReads/Decide.js"
import { notReadMessage } from "../src/OperatorReads/Mode.js"
import * as Withheld from "../src/OperatorReads/Withheld.js"

const reads = DeciderSpec.for(operatorReadDecider)
const read = { user, kind: "note", route: "GET /api/notes/note_1", ids: ["note_1"], readAt: at(5) } as const
const sessionId = SessionId.make("s-1")
const messageId = MessageId.make("telegram:100000001:1")

describe("the operator reads decider", () => {
  it("records every read, the same one again too", () => {
    reads.given([]).when(OperatorReadCommand.Record({ read })).then([{ _tag: "OperatorRead", ...read }])
    reads.given([{ _tag: "OperatorRead", ...read }]).when(OperatorReadCommand.Record({ read })).then([{ _tag: "OperatorRead", ...read }])
  })
})

describe("an item withheld from the operator", () => {
  it("a person keeps their id, user and note count; their name is left out", () => {
    expect(Withheld.person({ id: PersonId.make("person_1"), user, name: "Ana Souza", noteCount: 3 }))
      .toEqual({ id: "person_1", user, name: "", noteCount: 3, withheld: notReadMessage })
  })

  it("a note keeps its ids, sources and time; its body and whom it is about are left out", () => {
    const note = {
      id: NoteId.make("note_1"),
      user,
      sessionId,
      owner: { _tag: "Person", contactId: "person_1", name: "Ana" } as const,
      personId: PersonId.make("person_1"),
      body: "Ana moved to Porto.",
      sources: [{ messageId, seq: 1 }],
      recordedAt: at(9)
    }
    expect(Withheld.note(note)).toEqual({ ...note, body: "", owner: { _tag: "Person", contactId: "person_1", name: "" }, withheld: notReadMessage })
  })

  it("a question keeps its reason, seqs and how many choices; its messages' text and the names offered are left out", () => {
    const question = {
      id: QuestionId.make("q_1"),
      sessionId,
      user,
      reason: "contested",
      status: "open",
      sources: [{ messageId, seq: 1, text: "Ana or Tom moved." }],
      candidates: [{ _tag: "Person", contactId: null, name: "Ana" }, { _tag: "Unattached" }]
    } as const
    expect(Withheld.question(question)).toEqual({
      ...question,
      sources: [{ messageId, seq: 1, text: "" }],
      candidates: [{ _tag: "Person", contactId: null, name: "" }, { _tag: "Unattached" }],
      withheld: notReadMessage
    })
  })

  it("a session's accounting keeps every disposition and status; instructions' text and reminders' words are left out", () => {
    const planId = PlanId.make("plan_1")
    const noteId = NoteId.make("note_1")
    const accounting = {
      sessionId,
      user,
      status: "planned",
      messages: [
        { messageId, seq: 1, dispositions: [{ _tag: "InNote", noteId }, { _tag: "Instruction", kind: "directive", text: ", remind me on Friday" }] },
        { messageId: MessageId.make("telegram:100000001:2"), seq: 2, dispositions: [{ _tag: "Instruction", kind: "message", text: "thanks bot" }] }
      ],
      reminders: [
        { planId, seq: 1, quote: "remind me on Friday", outcome: "ask-when", detail: "Friday 25:00 is no time", reminderId: ReminderId.make("r_1"), status: "asking" }
      ]
    } as const
    // A view passed in may carry more than the schema: only the schema's fields come out.
    const view = { ...accounting, messages: accounting.messages.map((m) => ({ ...m, disposition: m.dispositions[0] })) }
    expect(Withheld.accounting(view)).toEqual({
      ...accounting,
      messages: [
        { messageId, seq: 1, dispositions: [{ _tag: "InNote", noteId }, { _tag: "Instruction", kind: "directive", text: "" }] },
        { messageId: "telegram:100000001:2", seq: 2, dispositions: [{ _tag: "Instruction", kind: "message", text: "" }] }
      ],
      reminders: [{ planId, seq: 1, quote: "", outcome: "ask-when", detail: null, reminderId: "r_1", status: "asking" }],
      withheld: notReadMessage
    })
  })
})
