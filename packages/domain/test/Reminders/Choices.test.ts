/** The times a button gives a reminder, on its own clock, for any moment and zone. */
import { DateTime } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { dueAfter } from "../../src/Reminders/Choices.js"
import { localAt, parseLocal } from "../../src/Reminders/LocalTime.js"

const zones = ["UTC", "Europe/Lisbon", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "Australia/Lord_Howe", "America/Sao_Paulo"]
const moment = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2060, 0, 1) })

/** The weekday of a clock reading's date, Sunday 0. */
const weekday = (local: string) => new Date(`${local.slice(0, 10)}T00:00:00Z`).getUTCDay()
const days = (from: string, to: string) => (Date.parse(`${to.slice(0, 10)}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) / 86_400_000
const readingOf = (zone: string, millis: number) => {
  const l = localAt(zone, millis)
  return `${String(l.year).padStart(4, "0")}-${String(l.month).padStart(2, "0")}-${String(l.day).padStart(2, "0")}`
}

describe("the times a button gives", () => {
  it("next Monday is 09:00 on the first Monday after today, a week on when today is a Monday, and always ahead", () => {
    fc.assert(fc.property(moment, fc.constantFrom(...zones), (millis, zone) => {
      const due = dueAfter("monday", DateTime.unsafeMake(millis), zone)
      const today = readingOf(zone, millis)
      expect(due.local.slice(10)).toBe("T09:00")
      expect(weekday(due.local)).toBe(1)
      const ahead = days(today, due.local)
      expect(ahead).toBeGreaterThanOrEqual(1)
      expect(ahead).toBeLessThanOrEqual(7)
      expect(DateTime.toEpochMillis(due.dueAt)).toBeGreaterThan(millis)
      expect(parseLocal(due.local)._tag).toBe("Some")
    }))
  })

  it("tomorrow is 09:00 on the next day of the zone's clock; an hour is an hour", () => {
    fc.assert(fc.property(moment, fc.constantFrom(...zones), (millis, zone) => {
      const morning = dueAfter("morning", DateTime.unsafeMake(millis), zone)
      expect(days(readingOf(zone, millis), morning.local)).toBe(1)
      expect(morning.local.slice(10)).toBe("T09:00")
      const hour = dueAfter("hour", DateTime.unsafeMake(millis), zone)
      expect(DateTime.toEpochMillis(hour.dueAt)).toBe(millis + 3_600_000)
    }))
  })

  it("named examples: a Sunday evening in Lisbon, a Monday morning, the Saturday before clocks go forward", () => {
    const at = (iso: string) => DateTime.unsafeMake(Date.parse(iso))
    expect(dueAfter("monday", at("2026-03-29T20:00:00Z"), "Europe/Lisbon")).toEqual({
      dueAt: at("2026-03-30T08:00:00Z"),
      zone: "Europe/Lisbon",
      local: "2026-03-30T09:00"
    })
    expect(dueAfter("monday", at("2026-03-30T07:00:00Z"), "Europe/Lisbon").local).toBe("2026-04-06T09:00")
    expect(dueAfter("morning", at("2026-03-28T12:00:00Z"), "Europe/Lisbon")).toEqual({
      dueAt: at("2026-03-29T08:00:00Z"),
      zone: "Europe/Lisbon",
      local: "2026-03-29T09:00"
    })
  })
})
