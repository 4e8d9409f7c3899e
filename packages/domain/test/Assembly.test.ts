import { describe, expect, it } from "@effect/vitest"
import { assembleNote, messageTiling } from "../src/ApplyPlan/Assembly.js"
import { MessageId } from "../src/Ids.js"
import type { MessageText } from "../src/Message.js"

const msg = (seq: number, text: string): MessageText => ({ id: MessageId.make(`m${seq}`), seq, text })
const quote = (seq: number, text: string) => ({ messageId: MessageId.make(`m${seq}`), text })

describe("assembleNote", () => {
  it("cuts a directive mid-message and drops the whitespace after the cut", () => {
    const note = assembleNote([msg(1, "Buy milk. remind me tomorrow. Call Bob.")], [quote(1, "remind me tomorrow.")])
    expect(note).toEqual({
      body: "Buy milk. Call Bob.",
      segments: [
        { _tag: "Slice", messageId: "m1", start: 0, end: 10 },
        { _tag: "Slice", messageId: "m1", start: 30, end: 39 }
      ],
      cuts: [{ messageId: "m1", seq: 1, text: "remind me tomorrow.", start: 10, end: 29 }],
      dropped: [{ messageId: "m1", start: 29, end: 30 }],
      warnings: []
    })
    expect(messageTiling(note, MessageId.make("m1"))).toEqual([
      { kind: "slice", start: 0, end: 10 },
      { kind: "cut", start: 10, end: 29 },
      { kind: "whitespace", start: 29, end: 30 },
      { kind: "slice", start: 30, end: 39 }
    ])
  })

  it("trims only at message edges and cuts, keeping CRLF and inner spacing untouched", () => {
    const note = assembleNote(
      [msg(2, "Alice likes tea.\r\n  Really  likes it.\nremind me\n"), msg(1, "  Remind me: Bob\tis back ")],
      [quote(1, "Remind me:"), quote(2, "remind me")]
    )
    expect(note.body).toBe("Bob\tis back\n\nAlice likes tea.\r\n  Really  likes it.")
    expect(note.dropped).toEqual([
      { messageId: "m1", start: 0, end: 2 },
      { messageId: "m1", start: 12, end: 13 },
      { messageId: "m1", start: 24, end: 25 },
      { messageId: "m2", start: 47, end: 48 },
      { messageId: "m2", start: 37, end: 38 }
    ])
  })

  it("cuts only the first occurrence of a directive", () => {
    expect(assembleNote([msg(1, "remind me, remind me")], [quote(1, "remind me")]).body).toBe(", remind me")
  })

  it("keeps a directive that overlaps one already cut, and says so", () => {
    const note = assembleNote([msg(1, "call Bob tomorrow")], [quote(1, "Bob tomorrow"), quote(1, "call Bob")])
    expect({ body: note.body, cuts: note.cuts, warnings: note.warnings }).toEqual({
      body: "tomorrow",
      cuts: [{ messageId: "m1", seq: 1, text: "call Bob", start: 0, end: 8 }],
      warnings: [{
        code: "directive-overlap",
        seqs: [1],
        message: "The quoted instruction \"Bob tomorrow\" overlaps another one in message 1, so it was kept in the note."
      }]
    })
  })

  it("removes nothing for an empty directive (silently) or a quote that does not match (with a warning)", () => {
    const note = assembleNote([msg(1, "Alice is back.")], [quote(1, ""), quote(1, "Alice is home."), quote(9, "Alice")])
    expect({ body: note.body, warnings: note.warnings }).toEqual({
      body: "Alice is back.",
      warnings: [
        {
          code: "directive-not-found",
          seqs: [1],
          message: "The quoted instruction \"Alice is home.\" did not match message 1 exactly, so the message was kept whole."
        },
        {
          code: "directive-not-found",
          seqs: [],
          message: "The quoted instruction \"Alice\" did not match any message of its note, so nothing was removed."
        }
      ]
    })
  })

  it("never cuts through a surrogate pair, even when the quote matches half of one", () => {
    const note = assembleNote([msg(1, "a😀b")], [quote(1, "\ude00b")])
    expect({ body: note.body, cuts: note.cuts, codes: note.warnings.map((w) => w.code) }).toEqual({
      body: "a😀b",
      cuts: [],
      codes: ["directive-not-found"]
    })
  })

  it("lets a message with nothing left contribute nothing, not even a separator", () => {
    const note = assembleNote([msg(1, "remind me"), msg(2, "  \n "), msg(3, "Alice")], [quote(1, "remind me")])
    expect({ body: note.body, segments: note.segments }).toEqual({
      body: "Alice",
      segments: [{ _tag: "Slice", messageId: "m3", start: 0, end: 5 }]
    })
  })
})
