/** A plan's reminders against a case's expected ones: exact words at the same local time. */
import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { ReminderId } from "../../src/Ids.js"
import type { ReminderView } from "../../src/Eval/ReminderDiff.js"
import { addReminderScores, emptyReminderScore, precision, recall, scoreReminders } from "../../src/Eval/ReminderScore.js"

const friday = { seq: 1, quote: "remind me on Friday to send Ana the deck", due: "2026-03-27T09:00" }
const plumber = { seq: 2, quote: "call the plumber tomorrow", due: "2026-03-26T09:00" }
const proposal = (id: string, e: { seq: number; quote: string; due: string }, local: string | null = e.due): ReminderView =>
  ({ reminderId: ReminderId.make(id), seq: e.seq, quote: e.quote, local })

describe("scoreReminders", () => {
  it("a proposal at another local time, or with its time asked, matches nothing", () => {
    const score = scoreReminders([friday, plumber], [proposal("a", friday), proposal("b", plumber, "2026-03-26T18:00"), proposal("c", { ...plumber, seq: 3 }, null)])
    expect(score).toEqual({
      expected: 2,
      proposed: 3,
      matched: 1,
      missed: [plumber],
      unexpected: [proposal("b", plumber, "2026-03-26T18:00"), proposal("c", { ...plumber, seq: 3 }, null)]
    })
    expect({ precision: precision(score), recall: recall(score) }).toEqual({ precision: 1 / 3, recall: 1 / 2 })
  })

  it("nothing expected and nothing proposed scores full marks", () => {
    expect({ precision: precision(emptyReminderScore), recall: recall(emptyReminderScore) }).toEqual({ precision: 1, recall: 1 })
  })

  const expected = fc.uniqueArray(
    fc.record({ seq: fc.integer({ min: 1, max: 4 }), quote: fc.constantFrom("a", "b", "remind me"), due: fc.constantFrom("2026-03-27T09:00", "2026-03-27T18:00") }),
    { selector: (e) => `${e.seq}|${e.quote}` }
  )

  test.prop([expected, fc.integer({ min: 0, max: 8 })])("the expected reminders proposed, in any order, with some left out: precision 1, recall the share kept", (all, keep) => {
    const kept = all.slice(0, keep)
    const score = scoreReminders(all, [...kept].reverse().map((e, i) => proposal(`r${i}`, e)))
    expect({ precision: precision(score), recall: recall(score), missed: score.missed })
      .toEqual({ precision: 1, recall: all.length === 0 ? 1 : kept.length / all.length, missed: all.slice(keep) })
  })

  test.prop([expected, expected])("scores add up count by count", (a, b) => {
    const one = scoreReminders(a, b.map((e, i) => proposal(`r${i}`, e)))
    const two = scoreReminders(b, a.map((e, i) => proposal(`r${i}`, e)))
    expect(addReminderScores(one, two)).toEqual({
      expected: a.length + b.length,
      proposed: a.length + b.length,
      matched: one.matched + two.matched,
      missed: [],
      unexpected: []
    })
    expect(one.matched).toBe(two.matched)
  })
})
