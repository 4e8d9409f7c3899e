/** Erasing a session's messages: they keep their place, lose their words, leave every note and question; nothing brings them back. */
import { describe, expect, it } from "@effect/vitest"
import { at, user } from "@verbatim/testkit/Given"
import { Either } from "effect"
import type { Event } from "../../src/Events.js"
import { NoteId, QuestionId, ReplyId } from "../../src/Ids.js"
import { Command, rejected } from "../../src/Session/Commands.js"
import { sessionDecider } from "../../src/Session/Decide.js"
import { plannable } from "../../src/Session/State.js"
import { noteRecorded, planApplied, planProduced, questionParked } from "./Decided.js"
import { chunk, closedSession, edit, messageId, person, plan, recordPlans, sessionId, spec } from "./fixtures.js"

const planned: ReadonlyArray<Event> = [
  ...closedSession("Ana plays the cello", "she tours in May", "who was that?"),
  planProduced("plan_1", plan({}), 1, 3),
  noteRecorded("note_1", person("Ana"), "person_1", [1, 2]),
  questionParked("q_1", "plan_1", "unclear", [3], [person("Ana")]),
  planApplied("plan_1", ["note_1"], ["q_1"])
]

const erase = (seqs: ReadonlyArray<number>, replies: ReadonlyArray<string> = []) =>
  Command.Erase({ messageIds: seqs.map(messageId), forgetId: "forget_1", replies: replies.map((r) => ReplyId.make(r)), now: at(500) })

const erased = (seqs: ReadonlyArray<number>, notes: ReadonlyArray<string>, questions: ReadonlyArray<string>, replies: ReadonlyArray<string> = []): Event => ({
  _tag: "MessagesErased",
  sessionId,
  user,
  forgetId: "forget_1",
  messageIds: seqs.map(messageId),
  notes: notes.map((n) => NoteId.make(n)),
  questions: questions.map((q) => QuestionId.make(q)),
  replies: replies.map((r) => ReplyId.make(r)),
  erasedAt: at(500)
})

const fold = (events: ReadonlyArray<Event>) => events.reduce(sessionDecider.evolve, sessionDecider.initialState)

describe("Erase", () => {
  it("records the messages not erased yet, with the notes and questions that held them and the replies to scrub", () => {
    spec.given(planned).when(erase([2, 3], ["reply_1"])).then([erased([2, 3], ["note_1"], ["q_1"], ["reply_1"])])
  })

  it("erasing again erases nothing more", () => {
    spec.given([...planned, erased([2], ["note_1"], [])]).when(erase([2])).thenRejects(rejected("unchanged", "those messages are erased already"))
  })

  it("leaves the messages in their place without words, in no note or question, and never plannable", () => {
    const state = fold([...planned, erased([2, 3], ["note_1"], ["q_1"])])
    expect({
      texts: state.messages.map((m) => [m.seq, m.text]),
      notes: [...state.notes.values()].map((n) => n.sources.map((s) => s.seq)),
      question: state.questions.get(QuestionId.make("q_1"))?.status,
      plannable: plannable(state).map((m) => m.seq)
    }).toEqual({
      texts: [[1, "Ana plays the cello"], [2, ""], [3, ""]],
      notes: [[1]],
      question: "withdrawn",
      plannable: [1]
    })
  })

  it("an edit arriving after the forgetting brings none of its words back", () => {
    spec.given([...planned, erased([2], ["note_1"], [])]).when(edit(2, "she tours in June", 700))
      .thenRejects(rejected("edit-ignored", "the message was forgotten"))
  })

  it("a plan decided before the erasure is refused as stale, so it files nothing of the erased", () => {
    const before = [...closedSession("one", "two")]
    const decided = recordPlans([chunk(plan({ unattached: [{ sourceItemSeqs: [1, 2], directives: [] }] }), 1, 2)], before.length)
    const after = sessionDecider.decide(fold([...before, erased([2], [], [])]), decided)
    expect(Either.isLeft(after) && after.left.reason).toEqual("stale")
  })
})


