/** Capturing a message: the first opens the session, each next one takes the next seq. */
import { describe, it } from "@effect/vitest"
import { SessionId } from "../../src/Ids.js"
import { rejected } from "../../src/Session/Commands.js"
import { anEdit, at, capture, captured, closedSession, messageId, openSession, sessionId, spec, user } from "./fixtures.js"

describe("Capture", () => {
  it("opens the session with its first message, seq 1, received at the command's time", () => {
    spec.given([]).when(capture(1, "Ana loves jazz", at(5))).then([
      { _tag: "SessionOpened", sessionId, user, provider: "telegram", chat: "100000001", openedAt: at(5) },
      { _tag: "MessageReceived", message: captured(1, "Ana loves jazz", 5) }
    ])
  })

  it("gives the next message the seq after the last one, in the session already open", () => {
    spec.given(openSession("one", "two")).when(capture(3, "three", at(40), null, SessionId.make("s-other"))).then([
      { _tag: "MessageReceived", message: captured(3, "three", 40) }
    ])
  })

  it("records the edit a message was captured from, so that an older edit arriving later changes nothing", () => {
    const from = anEdit(1, "Ana loves jazz (edited)", 30)
    spec.given([]).when(capture(1, "Ana loves jazz (edited)", at(31), from)).then([
      { _tag: "SessionOpened", sessionId, user, provider: "telegram", chat: "100000001", openedAt: at(31) },
      { _tag: "MessageReceived", message: captured(1, "Ana loves jazz (edited)", 31) },
      { _tag: "MessageEdited", messageId: messageId(1), sessionId, text: "Ana loves jazz (edited)", links: [], editedAt: at(30) }
    ])
  })

  it("refuses a message for a session that closed meanwhile: a new session takes it", () => {
    spec.given(closedSession("one")).when(capture(2, "two", at(700))).thenRejects(rejected("moved", "moved"))
  })
})
