import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { FakeTokenizer } from "@verbatim/testkit"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { wholeTextBoundaries, wholeTextCut } from "@verbatim/testkit/WholeTextCut"
import { graphemeBoundaries, truncateText, truncationMarker } from "../src/TruncateText.js"
import { budget, counter, counting, text, tricky } from "./TruncationFixtures.js"

const count = FakeTokenizer.countUnits
const runs = { numRuns: propertyRuns() }
const roundTrip = (s: string) => new TextDecoder().decode(new TextEncoder().encode(s))

describe("truncateText properties", () => {
  test.prop([text, budget, counter], runs)("never exceeds the budget", (t, b, c) => {
    expect(c(truncateText(t, b, c))).toBeLessThanOrEqual(b)
  })

  test.prop([text, budget, counter], runs)("returns a text that fits unchanged", (t, b, c) => {
    fc.pre(c(t) <= b)
    expect(truncateText(t, b, c)).toBe(t)
  })

  test.prop([text, budget, counter], runs)("is idempotent", (t, b, c) => {
    const once = truncateText(t, b, c)
    expect(truncateText(once, b, c)).toBe(once)
  })

  test.prop([text, text, budget, counter], runs)("is prefix-stable once over budget", (t, more, b, c) => {
    fc.pre(c(t) > b)
    expect(truncateText(t + more, b, c)).toBe(truncateText(t, b, c))
  })

  test.prop([text, budget, counter], runs)("cuts at a grapheme boundary and marks the cut", (t, b, c) => {
    const out = truncateText(t, b, c)
    fc.pre(out !== t && out !== "")
    const kept = out.slice(0, -truncationMarker.length)
    expect(out).toBe(kept + truncationMarker)
    expect(t.startsWith(kept)).toBe(true)
    expect(graphemeBoundaries(t)).toContain(kept.length)
  })

  test.prop([text, budget], runs)("keeps the longest prefix that fits with the marker", (t, b) => {
    const out = truncateText(t, b, count)
    fc.pre(out !== t)
    const boundaries = graphemeBoundaries(t)
    const kept = out === "" ? -1 : out.length - truncationMarker.length
    const next = boundaries.find((boundary) => boundary > kept) ?? t.length
    expect(count(t.slice(0, next) + truncationMarker)).toBeGreaterThan(b)
  })

  test.prop([text, budget, counter], runs)("emits well-formed text", (t, b, c) => {
    const out = truncateText(t, b, c)
    expect(roundTrip(out)).toBe(out)
  })

  test.prop([text, budget], runs)("counts a few times: once, plus at most three times a binary search's probes when cutting", (t, b) => {
    const { calls, counted } = counting(count)
    truncateText(t, b, counted)
    expect(calls.value).toBeLessThanOrEqual(2 + 3 * Math.ceil(Math.log2(t.length + 1)))
  })

  test.prop([text, budget, counter], runs)("cuts where a binary search over every grapheme boundary of the whole text cuts", (t, b, c) => {
    expect(truncateText(t, b, c)).toBe(wholeTextCut(t, b, c))
  })

  test.prop([text, fc.integer({ min: 1, max: 8 })], runs)("finds, a window at a time, the boundaries the segmenter finds in the whole text", (t, window) => {
    expect(graphemeBoundaries(t, window)).toEqual(wholeTextBoundaries(t))
  })
})

describe("truncateText on long texts", () => {
  it("cuts 200,000 characters near the budget", () => {
    expect(truncateText("a".repeat(200_000), 1_000, count)).toBe(`${"a".repeat(988)}…[truncated]`)
  })
  it("keeps flags whole in a run of 100,000 regional indicators, however far the cut is from the run's start", () => {
    const flags = tricky.flagFr.repeat(25_000)
    expect(truncateText(flags, 12 + 4 * 1_000 + 3, count)).toBe(`${tricky.flagFr.repeat(1_000)}…[truncated]`)
    expect(truncateText(`x${flags}`, 12 + 4 * 1_000, count)).toBe(`x${tricky.flagFr.repeat(999)}…[truncated]`)
  })
  it("counts no prefix far beyond the cut: a megabyte cut to 1,000 bytes counts the whole once and then prefixes near the cut", () => {
    const mixed = `héllo ${tricky.family} ação 日本語 `.repeat(20_000)
    const bytes = (t: string) => Buffer.byteLength(t, "utf8")
    const { calls, counted } = counting(bytes)
    const lengths: Array<number> = []
    const cut = truncateText(mixed, 1_000, (t) => {
      lengths.push(t.length)
      return counted(t)
    })
    // Over budget, a cut depends only on the prefix that fits (prefix-stable).
    expect(cut).toBe(truncateText(mixed.slice(0, 2_000), 1_000, bytes))
    // The whole text, the marker alone, then prefixes within a few units of the cut.
    expect([lengths[0], lengths[1], calls.value <= 12]).toEqual([mixed.length, truncationMarker.length, true])
    expect(lengths.slice(2).every((length) => Math.abs(length - cut.length) <= 64)).toBe(true)
  })
  it("finds every boundary of a long mixed text, window by window", () => {
    const mixed = `héllo ${tricky.family} ação ${tricky.flagDe}${tricky.flagFr} नमस्ते 日本語 ${tricky.combined}\r\n`.repeat(400)
    expect(graphemeBoundaries(mixed)).toEqual(wholeTextBoundaries(mixed))
  })
})

describe("truncateText examples (one UTF-16 unit = one token; the marker costs 12)", () => {
  it("the marker is fixed text", () => {
    expect(truncationMarker).toBe("…[truncated]")
    expect(count(truncationMarker)).toBe(12)
  })
  it("under the budget: unchanged", () => expect(truncateText("hello", 6, count)).toBe("hello"))
  it("exactly at the budget: unchanged", () => expect(truncateText("hello", 5, count)).toBe("hello"))
  it("one over, with no room for the marker: empty", () => expect(truncateText("hello", 4, count)).toBe(""))
  it("one over the marker: one character and the marker", () => {
    expect(truncateText("abcdefghijklmnopqrstuvwxyz", 13, count)).toBe("a…[truncated]")
  })
  it("exactly the marker: the marker alone", () => {
    expect(truncateText("abcdefghijklmnopqrstuvwxyz", 12, count)).toBe("…[truncated]")
  })
  it("empty input and zero budget", () => {
    expect(truncateText("", 0, count)).toBe("")
    expect(truncateText("a", 0, count)).toBe("")
  })
  it("a cut text cut again is unchanged", () => {
    expect(truncateText("abc…[truncated]", 15, count)).toBe("abc…[truncated]")
  })
  it("never splits a surrogate pair", () => {
    expect(truncateText(`ab${tricky.emoji}cdefghijklmnop`, 15, count)).toBe("ab…[truncated]")
    expect(truncateText(`ab${tricky.emoji}cdefghijklmnop`, 16, count)).toBe(`ab${tricky.emoji}…[truncated]`)
  })
  it("never splits a ZWJ sequence", () => {
    expect(count(tricky.family)).toBe(11)
    expect(truncateText(`x${tricky.family}${"y".repeat(16)}`, 23, count)).toBe("x…[truncated]")
    expect(truncateText(`x${tricky.family}${"y".repeat(16)}`, 24, count)).toBe(`x${tricky.family}…[truncated]`)
  })
  it("never splits a flag into regional indicators", () => {
    expect(truncateText(`${tricky.flagFr}${tricky.flagDe}${"z".repeat(20)}`, 18, count)).toBe(`${tricky.flagFr}…[truncated]`)
  })
  it("never separates a combining mark from its base", () => {
    expect(truncateText(`caf${tricky.combined}${"s".repeat(20)}`, 16, count)).toBe("caf…[truncated]")
    expect(truncateText(`caf${tricky.combined}${"s".repeat(20)}`, 17, count)).toBe(`caf${tricky.combined}…[truncated]`)
  })
})
