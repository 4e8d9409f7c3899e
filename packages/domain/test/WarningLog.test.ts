import { describe, expect, it } from "@effect/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { Schema } from "effect"
import fc from "fast-check"
import { PlanWarning, type WarningCode } from "../src/Decision.js"
import { compareNumbers, compareSeqLists, compareStrings } from "../src/Order.js"
import * as WarningLog from "../src/WarningLog.js"
import { wording } from "../src/WarningLog.js"

const runs = { numRuns: propertyRuns(1_000) }

interface Entry {
  readonly code: WarningCode
  readonly seqs: ReadonlyArray<number>
  readonly text: string
}

const logged = (entries: ReadonlyArray<Entry>) => {
  const log = WarningLog.make()
  for (const { code, seqs, text } of entries) WarningLog.record(log, code, seqs.slice(), text)
  return WarningLog.toWarnings(log)
}

const compareWorded = (a: PlanWarning, b: PlanWarning): number =>
  compareStrings(a.code, b.code) || compareSeqLists(a.seqs, b.seqs) || compareStrings(a.message, b.message)

/** The canonical order stated plainly: warnings worded whole, sorted by code, seqs, then words, duplicates dropped. */
const worded = (entries: ReadonlyArray<Entry>): Array<PlanWarning> =>
  entries
    .map(({ code, seqs, text }) => ({ code, seqs: seqs.slice().sort(compareNumbers), message: wording(code, seqs, text) }))
    .sort(compareWorded)
    .filter((w, i, all) => {
      const previous = all[i - 1]
      return previous === undefined || previous.code !== w.code || previous.message !== w.message ||
        compareSeqLists(previous.seqs, w.seqs) !== 0
    })

const codes: ReadonlyArray<WarningCode> = [
  "directive-not-found",
  "directive-overlap",
  "directive-disputed",
  "unknown-seq",
  "unplanned",
  "contested",
  "bot-message-kept-as-note"
]

/** Texts that are prefixes of one another and differ just before or at the closing quote. */
const text = fc.constantFrom("", "a", "a!", "a\"", "a#", "ab", "a b", " a", "e\u0301", "\ud83d", "\ud83d\ude00", "\"")
const seq = fc.constantFrom(1, 2, 0, -0, 1.5, -1, NaN, Infinity, -Infinity)
const entry: fc.Arbitrary<Entry> = fc.record({
  code: fc.constantFrom(...codes),
  seqs: fc.array(seq, { maxLength: 3 }).map((seqs) => seqs.sort(compareNumbers)),
  text
}).map((e) => ({
  code: e.code,
  // The single-seq codes name one message; only the directive codes quote a text.
  seqs: e.code === "directive-overlap" || e.code === "directive-disputed" || e.code === "bot-message-kept-as-note"
    ? e.seqs.slice(0, 1)
    : e.seqs,
  text: e.code.startsWith("directive-") ? e.text : ""
}))

describe("WarningLog", () => {
  it("orders and deduplicates exactly as comparing the worded warnings does", () => {
    fc.assert(fc.property(fc.array(entry, { maxLength: 12 }), (entries) => {
      expect(logged(entries)).toEqual(worded(entries))
    }), runs)
  })

  it("a warning worded on first read spreads, serialises and encodes as a plain one", () => {
    const log = WarningLog.make()
    WarningLog.record(log, "directive-overlap", [3], "call Bob")
    const [logged] = WarningLog.toWarnings(log)
    const plain = {
      code: "directive-overlap",
      seqs: [3],
      message: "The quoted instruction \"call Bob\" overlaps another one in message 3, so it was kept in the note."
    }
    expect(Object.keys(logged!)).toEqual(["code", "seqs", "message"])
    expect({ ...logged! }).toEqual(plain)
    expect(JSON.stringify(logged)).toBe(JSON.stringify(plain))
    expect(JSON.stringify(Schema.encodeSync(PlanWarning)(logged!))).toBe(JSON.stringify(plain))
    expect(logged!.message).toBe(plain.message)
  })

  it("a quoted text that is a prefix of another orders by the words after it, not by length", () => {
    const entries: Array<Entry> = [
      { code: "directive-not-found", seqs: [4], text: "a" },
      { code: "directive-not-found", seqs: [4], text: "a!" },
      { code: "directive-not-found", seqs: [4], text: "a" }
    ]
    expect(logged(entries)).toEqual([
      {
        code: "directive-not-found",
        seqs: [4],
        message: "The quoted instruction \"a!\" did not match message 4 exactly, so the message was kept whole."
      },
      {
        code: "directive-not-found",
        seqs: [4],
        message: "The quoted instruction \"a\" did not match message 4 exactly, so the message was kept whole."
      }
    ])
  })
})
