/** Live reminders against a candidate's: added, lost, moved, and what the users' labels make of each change. */
import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { DateTime } from "effect"
import { ReminderId } from "../../src/Ids.js"
import { diffReminders, type ReminderView, remindersUnchanged } from "../../src/Eval/ReminderDiff.js"
import { type ReminderLabel, reminderLabel } from "../../src/Eval/ReminderLabels.js"
import type { ReminderEvent } from "../../src/Reminders/Events.js"

const view = (id: string, seq: number, quote: string, local: string | null): ReminderView => ({ reminderId: ReminderId.make(id), seq, quote, local })
const deck = view("r1", 1, "remind me on Friday to send Ana the deck", "2026-03-27T09:00")
const plumber = view("r2", 2, "call the plumber tomorrow", "2026-03-26T09:00")
const tax = view("r3", 3, "the tax form is due next week, remind me", "2026-03-30T09:00")
const labels = (entries: ReadonlyArray<readonly [string, ReminderLabel]>) => new Map(entries.map(([id, l]) => [ReminderId.make(id), l] as const))

describe("diffReminders", () => {
  it("a kept reminder lost or moved is a regression; a refused one dropped is an improvement; new ones are added", () => {
    const candidate = [{ ...deck, local: "2026-03-27T18:00" }, view("r4", 4, "book the dentist", "2026-04-01T09:00")]
    expect(diffReminders([deck, plumber, tax], candidate, labels([["r1", { _tag: "Kept", local: "2026-03-27T09:00" }], ["r2", { _tag: "Refused" }]])))
      .toEqual({
        added: [{ seq: 4, quote: "book the dentist", local: "2026-04-01T09:00", label: null, effect: null }],
        lost: [
          { seq: 2, quote: "call the plumber tomorrow", local: "2026-03-26T09:00", label: "cancelled", effect: "improvement" },
          { seq: 3, quote: "the tax form is due next week, remind me", local: "2026-03-30T09:00", label: null, effect: null }
        ],
        moved: [{ seq: 1, quote: "remind me on Friday to send Ana the deck", from: "2026-03-27T09:00", to: "2026-03-27T18:00", label: "done", effect: "regression" }],
        unchanged: 0,
        regressions: 1,
        improvements: 1
      })
  })

  it("a move to the time the user gave it themselves is an improvement; a time asked agrees with no kept time", () => {
    const kept = labels([["r1", { _tag: "Kept", local: "2026-03-27T18:00" }], ["r2", { _tag: "Kept", local: "2026-03-26T09:00" }]])
    expect(diffReminders([deck, plumber], [{ ...deck, local: "2026-03-27T18:00" }, { ...plumber, local: null }], kept)).toEqual({
      added: [],
      lost: [],
      moved: [
        { seq: 1, quote: "remind me on Friday to send Ana the deck", from: "2026-03-27T09:00", to: "2026-03-27T18:00", label: "done", effect: "improvement" },
        { seq: 2, quote: "call the plumber tomorrow", from: "2026-03-26T09:00", to: null, label: "done", effect: "regression" }
      ],
      unchanged: 0,
      regressions: 1,
      improvements: 1
    })
  })

  // An id names its message and words, so both sides agree on them; only the time differs.
  const views = fc.uniqueArray(
    fc.record({
      id: fc.constantFrom("a", "b", "c", "d", "e", "f"),
      local: fc.option(fc.constantFrom("2026-03-27T09:00", "2026-03-27T18:00"), { nil: null })
    }).map(({ id, local }) => view(id, id.charCodeAt(0) % 3, `words ${id}`, local)),
    { selector: (v) => v.reminderId }
  )

  test.prop([views])("a side against itself changes nothing", (side) => {
    expect(diffReminders(side, side, new Map())).toEqual({ added: [], lost: [], moved: [], unchanged: side.length, regressions: 0, improvements: 0 })
  })

  test.prop([views, views])("swapping the sides swaps added and lost and reverses moves; every reminder is counted once", (a, b) => {
    const forth = diffReminders(a, b, new Map())
    const back = diffReminders(b, a, new Map())
    expect({ added: back.added, lost: back.lost, moved: back.moved.map((m) => ({ ...m, from: m.to, to: m.from })) })
      .toEqual({ added: forth.lost, lost: forth.added, moved: forth.moved })
    expect(forth.lost.length + forth.moved.length + forth.unchanged).toBe(a.length)
    expect(forth.added.length + forth.moved.length + forth.unchanged).toBe(b.length)
    expect(remindersUnchanged(forth)).toBe(remindersUnchanged(back))
  })
})

const at = (iso: string) => DateTime.unsafeMake(Date.parse(iso))
const words = { reminderId: ReminderId.make("r1"), user: "u", sessionId: "s", planId: "p", messageId: "m", quote: "q", start: 0, end: 1, noteId: null } as never
const scheduled = (local: string): ReminderEvent => ({ _tag: "ReminderScheduled", ...(words as object), due: { dueAt: at(`${local}:00Z`), zone: "UTC", local } }) as ReminderEvent
const event = (e: ReminderEvent, iso: string) => ({ event: e, recordedAt: at(iso) })
const id = ReminderId.make("r1")

describe("reminderLabel", () => {
  it("done keeps the plan's time, or the one the user gave; a snooze does not change it", () => {
    expect(reminderLabel([
      event(scheduled("2026-03-27T09:00"), "2026-03-25T18:00:00Z"),
      event({ _tag: "ReminderSnoozed", reminderId: id, snoozedAt: at("2026-03-27T09:01:00Z"), due: { dueAt: at("2026-03-27T10:01:00Z"), zone: "UTC", local: "2026-03-27T10:01" } }, "2026-03-27T09:01:00Z"),
      event({ _tag: "ReminderDone", reminderId: id, doneAt: at("2026-03-27T10:05:00Z") }, "2026-03-27T10:05:00Z")
    ])).toEqual({ _tag: "Kept", local: "2026-03-27T09:00" })
    expect(reminderLabel([
      event(scheduled("2026-03-27T09:00"), "2026-03-25T18:00:00Z"),
      event({ _tag: "ReminderRescheduled", reminderId: id, rescheduledAt: at("2026-03-26T08:00:00Z"), due: { dueAt: at("2026-03-27T18:00:00Z"), zone: "UTC", local: "2026-03-27T18:00" } }, "2026-03-26T08:00:00Z"),
      event({ _tag: "ReminderDone", reminderId: id, doneAt: at("2026-03-27T18:05:00Z") }, "2026-03-27T18:05:00Z")
    ])).toEqual({ _tag: "Kept", local: "2026-03-27T18:00" })
  })

  it("cancelled by the user within ten minutes of being set or delivered is refused; later, or by an edit, says nothing", () => {
    const cancel = (iso: string, reason: "user" | "quote-edited-away" = "user") =>
      event({ _tag: "ReminderCancelled", reminderId: id, cancelledAt: at(iso), reason }, iso)
    const set = event(scheduled("2026-03-27T09:00"), "2026-03-25T18:00:00Z")
    const delivered = event({ _tag: "ReminderDelivered", reminderId: id, deliveredAt: at("2026-03-27T09:00:00Z"), late: false }, "2026-03-27T09:00:00Z")
    expect([
      reminderLabel([set, cancel("2026-03-25T18:10:00Z")]),
      reminderLabel([set, cancel("2026-03-25T18:10:01Z")]),
      reminderLabel([set, delivered, cancel("2026-03-27T09:04:00Z")]),
      reminderLabel([set, cancel("2026-03-25T18:01:00Z", "quote-edited-away")]),
      reminderLabel([set])
    ]).toEqual([{ _tag: "Refused" }, null, { _tag: "Refused" }, null, null])
  })
})
