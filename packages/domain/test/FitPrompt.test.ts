import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { FakeTokenizer } from "@verbatim/testkit"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { Either } from "effect"
import { fitPrompt, type PromptInput } from "../src/FitPrompt.js"
import { droppable, type PromptPart, required } from "../src/PromptPart.js"
import { graphemeBoundaries, truncationMarker } from "../src/TruncateText.js"
import type { TokenCounter } from "../src/TokenCounter.js"
import { budget, counter, counting, text } from "./TruncationFixtures.js"

const count = FakeTokenizer.countUnits
const runs = { numRuns: propertyRuns() }

const parts = (prefix: string) =>
  fc.array(fc.tuple(text, fc.option(fc.nat({ max: 5 }))), { maxLength: 10 }).map((items) =>
    items.map(([t, rank], index): PromptPart => ({ key: `${prefix}${index}`, text: t, dropRank: rank }))
  )

const input = fc.record({ system: fc.string({ maxLength: 20 }), tools: parts("t"), messages: parts("m") })

const sum = (ps: ReadonlyArray<PromptPart>, c: TokenCounter) => ps.reduce((n, p) => n + c(p.text), 0)
const total = (p: PromptInput, c: TokenCounter) => c(p.system) + sum(p.tools, c) + sum(p.messages, c)

/** Droppable parts in the order fitPrompt promises to drop them: rank, then prompt order. */
const dropOrder = (p: PromptInput) => {
  const last = p.messages.length - 1
  return [...p.tools, ...p.messages.filter((_, i) => i !== last)]
    .filter((part) => part.dropRank !== null)
    .sort((a, b) => a.dropRank! - b.dropRank!)
}

const isSubsequence = (sub: ReadonlyArray<string>, all: ReadonlyArray<string>) => {
  let i = 0
  for (const key of all) if (key === sub[i]) i += 1
  return i === sub.length
}

describe("fitPrompt properties", () => {
  test.prop([input, budget, counter], runs)("fits, or fails only when what must survive cannot", (p, b, c) => {
    const result = fitPrompt(p, b, c)
    if (Either.isRight(result)) {
      expect(result.right.report.tokens).toBe(total(result.right, c))
      expect(result.right.report.tokens).toBeLessThanOrEqual(b)
      return
    }
    const error = result.left
    if (c(p.system) > b) {
      expect(error.reason).toBe("system-exceeds-budget")
      return
    }
    expect(error.reason).toBe("required-exceeds-budget")
    const last = p.messages.length - 1
    const kept = [...p.tools.filter((t) => t.dropRank === null)]
    const messages = p.messages.filter((m, i) => m.dropRank === null || i === last).map((m) => c(m.text))
    const largest = messages.length === 0 ? 0 : Math.max(...messages)
    expect(c(p.system) + sum(kept, c) + messages.reduce((n, m) => n + m, 0) - largest).toBeGreaterThan(b)
  })

  test.prop([input, budget, counter], runs)("keeps the system prompt, the last message and every required part", (p, b, c) => {
    const result = fitPrompt(p, b, c)
    fc.pre(Either.isRight(result))
    const out = Either.getOrThrow(result)
    expect(out.system).toBe(p.system)
    const keys = new Set([...out.tools, ...out.messages].map((part) => part.key))
    const last = p.messages.at(-1)
    for (const part of [...p.tools, ...p.messages]) {
      if (part.dropRank === null || part === last) expect(keys.has(part.key)).toBe(true)
    }
  })

  test.prop([input, budget, counter], runs)("outputs a subsequence, unmodified but for one marked cut", (p, b, c) => {
    const out = Either.getOrElse(fitPrompt(p, b, c), () => undefined)
    fc.pre(out !== undefined)
    const { report } = out
    expect(isSubsequence(out.tools.map((t) => t.key), p.tools.map((t) => t.key))).toBe(true)
    expect(isSubsequence(out.messages.map((m) => m.key), p.messages.map((m) => m.key))).toBe(true)
    expect(out.tools).toEqual(p.tools.filter((t) => !report.droppedTools.includes(t.key)))
    const byKey = new Map(p.messages.map((m) => [m.key, m]))
    for (const message of out.messages) {
      const original = byKey.get(message.key)!
      if (message.key !== report.cut) {
        expect(message).toBe(original)
        continue
      }
      expect(c(message.text)).toBeLessThan(c(original.text))
      if (message.text === "") continue
      const kept = message.text.slice(0, -truncationMarker.length)
      expect(message.text).toBe(kept + truncationMarker)
      expect(original.text.startsWith(kept) && graphemeBoundaries(original.text).includes(kept.length)).toBe(true)
    }
  })

  test.prop([input, budget, counter], runs)("drops whole parts in rank order, only as many as needed, before any cut", (p, b, c) => {
    const out = Either.getOrElse(fitPrompt(p, b, c), () => undefined)
    fc.pre(out !== undefined)
    const { report } = out
    const order = dropOrder(p)
    const dropped = [...report.droppedTools, ...report.droppedMessages]
    const expected = order.slice(0, dropped.length)
    expect(new Set(dropped)).toEqual(new Set(expected.map((part) => part.key)))
    expect(report.droppedTokens).toBe(total(p, c) - report.tokens)
    if (report.cut !== null) expect(dropped.length).toBe(order.length)
    else if (dropped.length > 0) expect(report.tokens + c(expected.at(-1)!.text)).toBeGreaterThan(b)
  })

  test.prop([input, budget, counter], runs)("is idempotent: a fitted prompt is returned unchanged", (p, b, c) => {
    const out = Either.getOrElse(fitPrompt(p, b, c), () => undefined)
    fc.pre(out !== undefined)
    const again = Either.getOrThrow(fitPrompt(out, b, c))
    expect(again).toEqual({
      system: out.system,
      tools: out.tools,
      messages: out.messages,
      report: { droppedTools: [], droppedMessages: [], droppedTokens: 0, cut: null, tokens: out.report.tokens }
    })
  })

  test.prop([input, budget], runs)("counts each part once (and a little more for the one cut)", (p, b) => {
    const { calls, counted } = counting(count)
    const out = Either.getOrElse(fitPrompt(p, b, counted), () => undefined)
    const once = 1 + p.tools.length + p.messages.length
    if (out === undefined || out.report.cut === null) {
      expect(calls.value).toBeLessThanOrEqual(once)
      return
    }
    const cut = p.messages.find((m) => m.key === out.report.cut)!
    expect(calls.value).toBeLessThanOrEqual(once + 3 + 3 * Math.ceil(Math.log2(cut.text.length + 1)))
  })
})

// One UTF-16 unit = one token: system 3, tool 5, contacts 5 and 3, messages 2 and 5: 23 in all.
const request: PromptInput = {
  system: "sys",
  tools: [required("plan", "toolx")],
  messages: [droppable("contact:alice", "alice", 0), droppable("contact:bob", "bob", 1), required("seq:1", "hi"), required("seq:2", "there")]
}
const fit = (p: PromptInput, b: number) => Either.getOrThrow(fitPrompt(p, b, count))
const untouched = (tokens: number) => ({ droppedTools: [], droppedMessages: [], droppedTokens: 0, cut: null, tokens })

describe("fitPrompt examples (one UTF-16 unit = one token)", () => {
  it("under the budget: unchanged", () => expect(fit(request, 24)).toEqual({ ...request, report: untouched(23) }))
  it("exactly at the budget: unchanged", () => expect(fit(request, 23)).toEqual({ ...request, report: untouched(23) }))
  it("one over: the least recently used contact gives way whole", () => {
    expect(fit(request, 22)).toEqual({
      ...request,
      messages: [request.messages[1], request.messages[2], request.messages[3]],
      report: { droppedTools: [], droppedMessages: ["contact:alice"], droppedTokens: 5, cut: null, tokens: 18 }
    })
  })
  it("contacts all gone before the largest message is cut", () => {
    const long = { ...request, messages: [...request.messages.slice(0, 3), required("seq:2", "a long message here")] }
    expect(fit(long, 3 + 5 + 2 + 13)).toEqual({
      ...long,
      messages: [required("seq:1", "hi"), required("seq:2", "a…[truncated]")],
      report: { droppedTools: [], droppedMessages: ["contact:alice", "contact:bob"], droppedTokens: 8 + 19 - 13, cut: "seq:2", tokens: 23 }
    })
  })
  it("zero budget and empty input", () => {
    expect(fit({ system: "", tools: [], messages: [] }, 0)).toEqual({ system: "", tools: [], messages: [], report: untouched(0) })
  })
  it("zero budget keeps the last message, cut to nothing", () => {
    expect(fit({ system: "", tools: [], messages: [droppable("m", "abc", 0)] }, 0)).toEqual({
      system: "",
      tools: [],
      messages: [droppable("m", "", 0)],
      report: { droppedTools: [], droppedMessages: [], droppedTokens: 3, cut: "m", tokens: 0 }
    })
  })
  it("a droppable tool goes whole", () => {
    const withTool = { ...request, tools: [...request.tools, droppable("search", "searchtool", 0)] }
    expect(fit(withTool, 23).report).toEqual({ droppedTools: ["search"], droppedMessages: [], droppedTokens: 10, cut: null, tokens: 23 })
  })
  it("the system prompt alone over the budget is an error naming the numbers", () => {
    const error = Either.getOrThrow(Either.flip(fitPrompt(request, 2, count)))
    expect({ reason: error.reason, budget: error.budget, required: error.required, message: error.message }).toEqual({
      reason: "system-exceeds-budget",
      budget: 2,
      required: 3,
      message: "The system prompt alone takes 3 tokens, over the budget of 2"
    })
  })
  it("required parts that cannot fit even with one cut are an error", () => {
    const error = Either.getOrThrow(Either.flip(fitPrompt(request, 9, count)))
    expect(error.message).toBe("The parts that must survive take 15 tokens; cutting one message cannot bring them within the budget of 9")
  })
  it("counts 10,000 messages with 10,001 calls", () => {
    const messages = Array.from({ length: 10_000 }, (_, i) => droppable(`seq:${i + 1}`, `message ${i + 1}`, i))
    const { calls, counted } = counting(count)
    const out = Either.getOrThrow(fitPrompt({ system: "sys", tools: [], messages }, 50_000, counted))
    expect(calls.value).toBe(10_001)
    expect(out.messages.at(-1)).toBe(messages.at(-1))
  })
})
