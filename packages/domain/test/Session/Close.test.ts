/** Closing a session: once, with its message count. */
import { describe, it } from "@effect/vitest"
import { rejected } from "../../src/Session/Commands.js"
import { Command } from "../../src/Session/Commands.js"
import { at, closedSession, edited, openSession, sessionId, spec } from "./fixtures.js"

describe("Close", () => {
  it("records the message count, the reason and the time", () => {
    spec.given([...openSession("one", "two", "three"), edited(2, "deux", 50)]).when(Command.Close({ reason: "command", now: at(700) })).then([
      { _tag: "SessionClosed", sessionId, reason: "command", messageCount: 3, closedAt: at(700) }
    ])
  })

  it("refuses to close a closed session", () => {
    spec.given(closedSession("one")).when(Command.Close({ reason: "idle", now: at(700) })).thenRejects(
      rejected("already-closed", "already-closed")
    )
  })

  it("refuses to close a session that never opened", () => {
    spec.given([]).when(Command.Close({ reason: "import", now: at(700) })).thenRejects(rejected("no-session", "no-session"))
  })
})
