import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { FakeTokenizer } from "@verbatim/testkit"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { chunkSession } from "../src/ChunkSession.js"
import type { KeyedText } from "../src/PromptPart.js"
import { truncateText } from "../src/TruncateText.js"
import { budget, counter, counting, text } from "./TruncationFixtures.js"

const count = FakeTokenizer.countUnits
const runs = { numRuns: propertyRuns() }

const session = fc.array(text, { maxLength: 25 }).map((texts) =>
  texts.map((t, index): KeyedText & { readonly seq: number } => ({ key: `seq:${index + 1}`, seq: index + 1, text: t }))
)

describe("chunkSession properties", () => {
  test.prop([session, budget, counter], runs)("chunks hold every message once, in order", (messages, b, c) => {
    const chunks = chunkSession(messages, b, c)
    expect(chunks.flatMap((chunk) => chunk.messages.map((m) => m.key))).toEqual(messages.map((m) => m.key))
    for (const chunk of chunks) expect(chunk.messages.length).toBeGreaterThan(0)
  })

  test.prop([session, budget, counter], runs)("each chunk is within budget and says its tokens", (messages, b, c) => {
    for (const chunk of chunkSession(messages, b, c)) {
      expect(chunk.tokens).toBe(chunk.messages.reduce((n, m) => n + c(m.text), 0))
      expect(chunk.tokens).toBeLessThanOrEqual(b)
    }
  })

  test.prop([session, budget, counter], runs)("only a message over the budget is cut, alone in its chunk", (messages, b, c) => {
    const byKey = new Map(messages.map((m) => [m.key, m]))
    for (const chunk of chunkSession(messages, b, c)) {
      if (chunk.cut === null) {
        for (const m of chunk.messages) expect(m).toBe(byKey.get(m.key))
        continue
      }
      const original = byKey.get(chunk.cut)!
      expect(c(original.text)).toBeGreaterThan(b)
      expect(chunk.messages).toEqual([{ ...original, text: truncateText(original.text, b, c) }])
    }
  })

  test.prop([session, budget, counter], runs)("a chunk ends only where the next message would not fit", (messages, b, c) => {
    const chunks = chunkSession(messages, b, c)
    chunks.slice(1).forEach((chunk, i) => {
      const previous = chunks[i]!
      const first = byKeyText(messages, chunk.messages[0]!.key)
      expect(previous.cut !== null || chunk.cut !== null || previous.tokens + c(first) > b).toBe(true)
    })
  })

  test.prop([session, budget], runs)("counts each message once when nothing is cut", (messages, b) => {
    fc.pre(messages.every((m) => count(m.text) <= b))
    const { calls, counted } = counting(count)
    chunkSession(messages, b, counted)
    expect(calls.value).toBe(messages.length)
  })
})

const byKeyText = (messages: ReadonlyArray<KeyedText>, key: string) => messages.find((m) => m.key === key)!.text
const message = (seq: number, text: string) => ({ key: `seq:${seq}`, text })

describe("chunkSession examples (one UTF-16 unit = one token)", () => {
  const messages = [message(1, "aaaa"), message(2, "bbb"), message(3, "cc")]
  it("under the budget: one chunk", () => {
    expect(chunkSession(messages, 10, count)).toEqual([{ messages, tokens: 9, cut: null }])
  })
  it("exactly at the budget: one chunk", () => {
    expect(chunkSession(messages, 9, count)).toEqual([{ messages, tokens: 9, cut: null }])
  })
  it("one over: the last message starts a second chunk", () => {
    expect(chunkSession(messages, 8, count)).toEqual([
      { messages: [messages[0], messages[1]], tokens: 7, cut: null },
      { messages: [messages[2]], tokens: 2, cut: null }
    ])
  })
  it("a message larger than a chunk goes alone, cut and marked", () => {
    const long = [message(1, "hi"), message(2, "x".repeat(30)), message(3, "yo")]
    expect(chunkSession(long, 14, count)).toEqual([
      { messages: [message(1, "hi")], tokens: 2, cut: null },
      { messages: [message(2, "xx…[truncated]")], tokens: 14, cut: "seq:2" },
      { messages: [message(3, "yo")], tokens: 2, cut: null }
    ])
  })
  it("a message larger than a chunk is cut once, by the caller's cut when given", () => {
    const long = [message(1, "hi"), message(2, "x".repeat(30))]
    const asked: Array<[string, number]> = []
    const cut = (m: (typeof long)[number], room: number) => {
      asked.push([m.text, room])
      return { ...m, text: `${m.text.slice(0, room - 3)}[…]` }
    }
    expect(chunkSession(long, 14, count, cut)).toEqual([
      { messages: [message(1, "hi")], tokens: 2, cut: null },
      { messages: [message(2, "xxxxxxxxxxx[…]")], tokens: 14, cut: "seq:2" }
    ])
    expect(asked).toEqual([["x".repeat(30), 14]])
  })
  it("an empty session has no chunks", () => expect(chunkSession([], 0, count)).toEqual([]))
  it("zero budget: empty messages share a chunk, others are cut to nothing", () => {
    expect(chunkSession([message(1, ""), message(2, ""), message(3, "a")], 0, count)).toEqual([
      { messages: [message(1, ""), message(2, "")], tokens: 0, cut: null },
      { messages: [message(3, "")], tokens: 0, cut: "seq:3" }
    ])
  })
  it("keeps the caller's fields on every message", () => {
    const withSeq = [{ key: "seq:7", seq: 7, text: "z".repeat(20) }]
    expect(chunkSession(withSeq, 13, count)).toEqual([
      { messages: [{ key: "seq:7", seq: 7, text: "z…[truncated]" }], tokens: 13, cut: "seq:7" }
    ])
  })
})
