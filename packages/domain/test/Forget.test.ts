/** Forgetting: recorded once, and every stored event kept without the forgotten words (and only those). */
import { describe, expect, it } from "@effect/vitest"
import { at, user } from "@verbatim/testkit/Given"
import { DeciderSpec } from "@verbatim/testkit/DeciderSpec"
import type { Event } from "../src/Events.js"
import { forgetDecider } from "../src/Forget/Decide.js"
import { redact } from "../src/Forget/Redact.js"
import { askAnswered, askPosed } from "@verbatim/testkit/GivenAsks"
import { PersonId, ReplyId, SessionId } from "../src/Ids.js"
import { directive, instruction, noteRecorded, personAdded, planProduced, questionParked, replyQueued } from "./Session/Decided.js"
import { closedSession, edited, messageId, person, plan } from "./Session/fixtures.js"

const spec = DeciderSpec.for(forgetDecider)
const forget = {
  forgetId: "forget_1",
  user,
  target: { _tag: "Person" as const, personId: PersonId.make("person_1") },
  by: "user" as const,
  messages: 2,
  sessions: [SessionId.make("s1")],
  people: [PersonId.make("person_1")],
  now: at(500)
}

describe("the forget decider", () => {
  it("records a forgetting with the people it takes", () => {
    spec.given([]).when(forget).then([
      { _tag: "Forgotten", forgetId: "forget_1", user, target: forget.target, by: "user", messages: 2, sessions: forget.sessions, people: forget.people, forgottenAt: at(500) },
      { _tag: "PersonForgotten", personId: PersonId.make("person_1"), user, forgetId: "forget_1", forgottenAt: at(500) }
    ])
  })

  it("records the same forgetting once", () => {
    spec.given([{ _tag: "Forgotten", forgetId: "forget_1", user, target: { _tag: "User" }, by: "operator", messages: 0, sessions: [], people: [], forgottenAt: at(1) }])
      .when(forget).thenRejects({ _tag: "ForgetRefused", reason: "unchanged" })
  })
})

describe("redact", () => {
  const secret = "Zephyrine keeps the spare key under the blue pot"
  const history: ReadonlyArray<Event> = [
    ...closedSession("Ana plays the cello", secret),
    edited(2, `${secret}, not the red one`, 30),
    personAdded("person_1", "Zephyrine"),
    planProduced("plan_1", plan({ people: [{ contactId: null, name: "Zephyrine", notes: [{ sourceItemSeqs: [1, 2], directives: ["under the blue pot"] }] }] }), 1, 2),
    noteRecorded("note_1", person("Zephyrine"), "person_1", [1, 2], { directives: [directive(2, "under the blue pot")] }),
    instruction("plan_1", 2, "directive", "under the blue pot"),
    questionParked("q_1", "plan_1", "unclear", [1], [person("Zephyrine", "person_1"), person("Bob")]),
    replyQueued("reply_1", `Who is this about?\n\n«${secret}»`, [{ label: "Zephyrine", data: "a:q_1:0" }], "q_1")
  ]
  const forgetting = {
    messages: new Set([messageId(2)]),
    texts: [secret, `${secret}, not the red one`],
    replies: new Set([ReplyId.make("reply_1")]),
    people: new Set([PersonId.make("person_1")]),
    names: new Set(["zephyrine"]),
    everything: false
  }

  it("leaves no forgotten word or name in any event, and every other word as it was", () => {
    const kept = history.map((e) => redact(forgetting, e))
    const json = JSON.stringify(kept)
    expect(["Zephyrine", "zephyrine", "blue pot", "spare key", "red one"].filter((w) => json.includes(w))).toEqual([])
    expect(json.includes("Ana plays the cello")).toEqual(true)
    expect(kept.map((e) => e._tag)).toEqual(history.map((e) => e._tag))
  })

  it("is idempotent", () => {
    const once = history.map((e) => redact(forgetting, e))
    expect(once.map((e) => redact(forgetting, e))).toEqual(once)
  })

  it("empties an ask's quotes of forgotten messages, and with everything of the user its question and every quote", () => {
    const posed = askPosed("ask_1", "Where is the key?", 600)
    const base = askAnswered("ask_1", messageId(2), "under the blue pot", 601)
    // One quote of the forgotten message, one of a kept one, and a dropped quote of forgotten words.
    const answered: Event = base._tag === "AskAnswered"
      ? { ...base, kept: [...base.kept, { messageId: messageId(1), start: 0, end: 3, text: "Ana" }], dropped: [{ ref: "m2", text: "spare key under the blue", why: "not-in-message" }] }
      : base
    const texts = (e: Event) => e._tag === "AskAnswered" ? [...e.kept.map((q) => q.text), ...e.dropped.map((d) => d.text)] : e._tag === "AskPosed" ? [e.question] : []
    expect([posed, answered].map((e) => texts(redact(forgetting, e)))).toEqual([["Where is the key?"], ["", "Ana", ""]])
    expect([posed, answered].map((e) => texts(redact({ ...forgetting, everything: true }, e)))).toEqual([[""], ["", "", ""]])
  })
})
