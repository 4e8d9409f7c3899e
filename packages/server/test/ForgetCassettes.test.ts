/**
 * Which recorded model answers a forgetting deletes: a request holding a forgotten text (as its
 * data line escapes it, or a long piece of it as a cut message is sent), a forgotten person's
 * name among its contacts; never one that only shares a short word with them.
 */
import { describe, expect, it } from "@effect/vitest"
import { dataLine, frame } from "@verbatim/planner/RenderRequest"
import { holds } from "../src/Forget/Cassettes.js"

const forgotten = {
  texts: ["Ana said \"the <lease> & the keys\"\nare with Bruno", "ok"],
  names: new Set(["ana lima"])
}

const request = (lines: ReadonlyArray<unknown>, contacts: ReadonlyArray<unknown> = []) => ({
  hash: "h",
  request: {
    system: "You file notes.",
    userContent: frame.contactsOpen + contacts.map((c) => dataLine(c) + "\n").join("") + frame.contactsClose +
      frame.messagesOpen(null) + lines.map((l) => dataLine(l) + "\n").join("") + frame.messagesClose
  },
  outcome: { _tag: "Plan", raw: { notes: [] }, stopReason: "tool_use", usage: {}, model: "m" }
})

describe("the cassettes a forgetting deletes", () => {
  it("holds a forgotten text escaped in a data line, a long piece of one, or a forgotten name", () => {
    expect([
      holds(forgotten, request([{ seq: 1, text: "Ana said \"the <lease> & the keys\"\nare with Bruno" }])),
      holds(forgotten, request([{ seq: 1, text: "Ana said \"the <lease> & the keys\"\nare" }])),
      holds(forgotten, request([{ seq: 1, text: "fine" }], [{ id: "person_1", name: "Ana Lima" }])),
      holds(forgotten, request([{ seq: 1, text: "ok" }])),
      holds(forgotten, { ...request([]), outcome: { _tag: "Plan", raw: { notes: [{ owner: { name: " ANA LIMA " } }] } } })
    ]).toEqual([true, true, true, true, true])
  })

  it("does not hold a request that only shares short words with them", () => {
    expect([
      holds(forgotten, request([{ seq: 1, text: "Ana said" }, { seq: 2, text: "Bruno" }, { seq: 3, text: "ok then, book it" }], [{ id: "person_2", name: "Ana" }])),
      holds({ texts: [" "], names: new Set() }, request([{ seq: 1, text: "anything" }]))
    ]).toEqual([false, false])
  })
})
