/** The messages an ask sends the model: each once, in send order, with its ref and JSON line; and how readily each gives way. */
import { describe, expect, it } from "@effect/vitest"
import { type AskCandidate, candidateParts, localDay, sentCandidates } from "../../src/Ask/Candidates.js"
import { MessageId, NoteId, UserId } from "../../src/Ids.js"

const user = UserId.make("telegram:100000001")
const ms = (iso: string) => Date.parse(iso)

const candidate = (id: string, receivedAt: number, fields: Partial<AskCandidate> = {}): AskCandidate => ({
  messageId: MessageId.make(id),
  user,
  person: "Ana",
  noteId: NoteId.make("note_1"),
  receivedAt,
  text: `text of ${id}`,
  named: false,
  ...fields
})

describe("localDay", () => {
  it("is the day in the asker's zone, which may not be the day in UTC", () => {
    expect([
      localDay(ms("2026-01-01T10:59:00Z"), "Pacific/Auckland"),
      localDay(ms("2026-01-01T11:00:00Z"), "Pacific/Auckland"),
      localDay(ms("2026-01-01T11:00:00Z"), "UTC"),
      localDay(ms("2026-01-01T02:00:00Z"), "America/New_York"),
      localDay(ms("0999-03-04T12:00:00Z"), "UTC")
    ]).toEqual(["2026-01-01", "2026-01-02", "2026-01-01", "2025-12-31", "0999-03-04"])
  })
})

describe("sentCandidates", () => {
  it("sends each message once, in the order received, as m1, m2 …, with its line of the request", () => {
    const found = [
      candidate("telegram:100000001:3", ms("2026-01-01T09:00:00Z"), { person: "Tomás", noteId: NoteId.make("note_2"), text: "Tomás said \"no\"" }),
      candidate("telegram:100000001:1", ms("2026-01-01T08:00:00Z"), { text: "Ana is moving to Lisbon in May." }),
      candidate("telegram:100000001:2", ms("2026-01-01T08:30:00Z"), { person: null, noteId: null, text: "line one\nline two 😀" })
    ]
    expect(sentCandidates(found, "UTC")).toEqual([
      {
        ...found[1]!,
        ref: "m1",
        line: `{"ref":"m1","person":"Ana","at":"2026-01-01","text":"Ana is moving to Lisbon in May."}`
      },
      {
        ...found[2]!,
        ref: "m2",
        line: `{"ref":"m2","person":null,"at":"2026-01-01","text":"line one\\nline two 😀"}`
      },
      {
        ...found[0]!,
        ref: "m3",
        line: `{"ref":"m3","person":"Tomás","at":"2026-01-01","text":"Tomás said \\"no\\""}`
      }
    ])
  })

  it("writes the day the message was sent in the asker's zone: Auckland is a day ahead of UTC near midnight", () => {
    const found = [
      candidate("telegram:100000001:1", ms("2026-01-01T10:59:00Z"), { text: "before midnight in Auckland" }),
      candidate("telegram:100000001:2", ms("2026-01-01T11:01:00Z"), { text: "after midnight in Auckland" })
    ]
    expect(sentCandidates(found, "Pacific/Auckland").map((c) => c.line)).toEqual([
      `{"ref":"m1","person":"Ana","at":"2026-01-01","text":"before midnight in Auckland"}`,
      `{"ref":"m2","person":"Ana","at":"2026-01-02","text":"after midnight in Auckland"}`
    ])
    expect(sentCandidates(found, "UTC").map((c) => c.line)).toEqual([
      `{"ref":"m1","person":"Ana","at":"2026-01-01","text":"before midnight in Auckland"}`,
      `{"ref":"m2","person":"Ana","at":"2026-01-01","text":"after midnight in Auckland"}`
    ])
  })

  it("sends a message found twice once, the first found, named when either finding was through a named person", () => {
    const at = ms("2026-01-01T08:00:00Z")
    const byWords = candidate("telegram:100000001:1", at, { person: "Ana" })
    const byName = candidate("telegram:100000001:1", at, { person: "Ana (other note)", named: true })
    const line = `{"ref":"m1","person":"Ana","at":"2026-01-01","text":"text of telegram:100000001:1"}`
    expect(sentCandidates([byWords, byName], "UTC")).toEqual([{ ...byWords, named: true, ref: "m1", line }])
    expect(sentCandidates([byWords, byWords], "UTC")).toEqual([{ ...byWords, ref: "m1", line }])
    expect(sentCandidates([byName, byWords], "UTC")).toEqual([
      { ...byName, ref: "m1", line: `{"ref":"m1","person":"Ana (other note)","at":"2026-01-01","text":"text of telegram:100000001:1"}` }
    ])
  })

  it("orders messages received at the same moment by their ids", () => {
    const at = ms("2026-01-01T08:00:00Z")
    const found = [candidate("telegram:1:b", at), candidate("telegram:1:a", at + 1), candidate("telegram:1:a0", at), candidate("telegram:1:B", at)]
    expect(sentCandidates(found, "UTC").map((c) => [c.ref, c.messageId])).toEqual([
      ["m1", "telegram:1:B"],
      ["m2", "telegram:1:a0"],
      ["m3", "telegram:1:b"],
      ["m4", "telegram:1:a"]
    ])
  })

  it("sends nothing when nothing was found", () => {
    expect(sentCandidates([], "UTC")).toEqual([])
  })
})

describe("candidateParts", () => {
  it("ranks a message about a named person above one holding the question's words, and that above a newer one", () => {
    const sent = sentCandidates([
      candidate("telegram:100000001:1", 1_000, { text: "Ana is moving.", named: true }),
      candidate("telegram:100000001:2", 2_000, { person: null, text: "The FLAT in Lisbon is small." }),
      candidate("telegram:100000001:3", 3_000, { person: "Tomás", text: "Nothing here." })
    ], "UTC")
    expect(candidateParts(sent, ["lisbon", "flat"])).toEqual([
      { key: "m1", text: sent[0]!.line, dropRank: 1_000 },
      { key: "m2", text: sent[1]!.line, dropRank: 20.5 },
      { key: "m3", text: sent[2]!.line, dropRank: 1 }
    ])
  })

  it("ranks by how many of the terms a message holds, each term once, then by how recent it is", () => {
    const sent = sentCandidates([
      candidate("telegram:100000001:1", 10_000, { text: "ana ana ana" }),
      candidate("telegram:100000001:2", 20_000, { text: "Ana in Lisbon" }),
      candidate("telegram:100000001:3", 30_000, { text: "nobody" }),
      candidate("telegram:100000001:4", 50_000, { text: "ANA", named: true })
    ], "UTC")
    expect(candidateParts(sent, ["lisbon", "ana"])).toEqual([
      { key: "m1", text: sent[0]!.line, dropRank: 10 },
      { key: "m2", text: sent[1]!.line, dropRank: 20.25 },
      { key: "m3", text: sent[2]!.line, dropRank: 0.5 },
      { key: "m4", text: sent[3]!.line, dropRank: 1_011 }
    ])
  })

  it("ranks a lone message, or messages received at one moment, by person and words alone", () => {
    const one = sentCandidates([candidate("telegram:100000001:1", 5_000, { text: "Ana" })], "UTC")
    expect(candidateParts(one, ["ana"])).toEqual([{ key: "m1", text: one[0]!.line, dropRank: 10 }])
    const same = sentCandidates([candidate("telegram:100000001:1", 5_000), candidate("telegram:100000001:2", 5_000, { named: true })], "UTC")
    expect(candidateParts(same, [])).toEqual([
      { key: "m1", text: same[0]!.line, dropRank: 0 },
      { key: "m2", text: same[1]!.line, dropRank: 1_000 }
    ])
    expect(candidateParts([], ["ana"])).toEqual([])
  })
})
