/**
 * An import's sessions are planned without a reply each: the import sends one for all of them,
 * and their questions wait on `/api/questions`. A live session the import closed still replies.
 */
import { describe, it } from "@effect/vitest"
import type { Event } from "../../src/Events.js"
import { messageIdOf } from "../../src/Ids.js"
import { makeInboundMessage } from "../../src/Message.js"
import {
  failedReply,
  noteRecorded,
  personAdded,
  planApplied,
  planFailed,
  planProduced,
  questionParked,
  replyQueued
} from "./Decided.js"
import { chunk, closed, closedSession, failPlan, opened, person, plan, received, recordPlans, spec } from "./fixtures.js"

/** Telegram's id of message `seq` as an import records it. */
const exportedId = (seq: number) => `telegram-export:4242:${seq}`

/** The same events with every message (and every source) the import's instead of a webhook's. */
const exported = (events: ReadonlyArray<Event>): Array<Event> =>
  events.map((event) => {
    switch (event._tag) {
      case "MessageReceived":
        return {
          ...event,
          message: makeInboundMessage({
            ...event.message,
            id: messageIdOf("telegram", exportedId(event.message.seq)),
            providerMessageId: exportedId(event.message.seq)
          })
        }
      case "NoteRecorded":
      case "QuestionParked":
        return { ...event, sources: event.sources.map((s) => ({ ...s, messageId: messageIdOf("telegram", exportedId(s.seq)) })) }
      default:
        return event
    }
  })

const texts = ["Ana starts at the clinic in March", "Maybe Carla or Dana will come"]
const thePlan = plan({
  people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] }],
  unclear: [{ sourceItemSeqs: [2], candidates: ["Carla", "Dana"] }]
})
const recorded = [
  personAdded("person_1", "Ana"),
  planProduced("plan_1", thePlan, 1, 2),
  noteRecorded("note_1", person("Ana"), "person_1", [1]),
  questionParked("q_1", "plan_1", "unclear", [2], [person("Carla"), person("Dana")]),
  planApplied("plan_1", ["note_1"], ["q_1"])
]

describe("an imported session", () => {
  it("records its plan's notes and questions with no summary and no question sent", () => {
    spec.given(exported(closedSession(...texts))).when(recordPlans([chunk(thePlan, 1, 2)], 4)).then(exported(recorded))
  })

  it("is one whoever closed it: the scheduler's idle close too", () => {
    spec.given(exported([opened(), received(1, texts[0]!), received(2, texts[1]!), closed(2, "idle")]))
      .when(recordPlans([chunk(thePlan, 1, 2)], 4))
      .then(exported(recorded))
  })

  it("parks its messages when planning fails, telling no one", () => {
    spec.given(exported(closedSession(...texts))).when(failPlan("overloaded", "529 overloaded", 4)).then(
      exported([planFailed("overloaded", 1, "529 overloaded"), questionParked("q_1", null, "failed", [1, 2])])
    )
  })

  it("is not a live session the import closed first: that one is told as always", () => {
    spec.given([opened(), received(1, texts[0]!), received(2, texts[1]!), closed(2, "import")])
      .when(failPlan("overloaded", "529 overloaded", 4))
      .then([planFailed("overloaded", 1, "529 overloaded"), questionParked("q_1", null, "failed", [1, 2]), replyQueued("reply_1", failedReply)])
  })

  it("is one only when every message is the import's", () => {
    const mixed = questionParked("q_1", null, "failed", [1, 2])
    spec.given([opened(), ...exported([received(1, texts[0]!)]), received(2, texts[1]!), closed(2, "import")])
      .when(failPlan("overloaded", "529 overloaded", 4))
      .then([
        planFailed("overloaded", 1, "529 overloaded"),
        mixed._tag === "QuestionParked"
          ? { ...mixed, sources: [{ seq: 1, messageId: messageIdOf("telegram", exportedId(1)) }, mixed.sources[1]!] }
          : mixed,
        replyQueued("reply_1", failedReply)
      ])
  })
})
