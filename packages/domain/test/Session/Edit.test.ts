/** Editing a message: the newest edit by the provider's time wins, and only its sender edits it. */
import { describe, it } from "@effect/vitest"
import { rejected } from "../../src/Session/Commands.js"
import { at, closedSession, edit, edited, messageId, openSession, sessionId, spec } from "./fixtures.js"

const editedOnce = [...openSession("Ana loves jazz", "Bob moved"), edited(1, "Ana loves blues", 100)]

describe("Edit", () => {
  it("records a newer edit than the one recorded", () => {
    spec.given(editedOnce).when(edit(1, "Ana loves soul", 200)).then([
      { _tag: "MessageEdited", messageId: messageId(1), sessionId, text: "Ana loves soul", links: [], editedAt: at(200) }
    ])
  })

  it("records the first edit of a message, also in a closed session", () => {
    spec.given(closedSession("Ana loves jazz")).when(edit(1, "Ana loves blues", 100)).then([
      { _tag: "MessageEdited", messageId: messageId(1), sessionId, text: "Ana loves blues", links: [], editedAt: at(100) }
    ])
  })

  it("refuses an edit older than the one recorded, whatever order they arrive in", () => {
    spec.given(editedOnce).when(edit(1, "Ana loves rock", 99)).thenRejects(
      rejected("edit-ignored", "a newer edit of the message is already recorded")
    )
  })

  it("refuses the recorded edit again: same text, same time", () => {
    spec.given(editedOnce).when(edit(1, "Ana loves blues", 100)).thenRejects(rejected("edit-ignored", "the text did not change"))
  })

  it("records the same text at a newer time: that time keeps older edits out", () => {
    spec.given(editedOnce).when(edit(1, "Ana loves blues", 150)).then([
      { _tag: "MessageEdited", messageId: messageId(1), sessionId, text: "Ana loves blues", links: [], editedAt: at(150) }
    ])
  })

  it("refuses an edit from someone other than the message's sender", () => {
    spec.given(editedOnce).when(edit(1, "Ana hates jazz", 200, { sender: "200000002" })).thenRejects(
      rejected("edit-ignored", "the edit comes from someone other than the sender")
    )
  })

  it("refuses an edit of a message the session does not have", () => {
    spec.given(editedOnce).when(edit(3, "Carla called", 200)).thenRejects(rejected("not-in-session", "not-in-session"))
    spec.given([]).when(edit(1, "Ana loves jazz", 200)).thenRejects(rejected("not-in-session", "not-in-session"))
  })
})
