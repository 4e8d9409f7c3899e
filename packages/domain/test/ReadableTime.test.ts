import { describe, expect, it } from "@effect/vitest"
import { localDay, localTime, readableReading } from "@verbatim/domain/ReadableTime"
import { DateTime } from "effect"

describe("readable times", () => {
  it("a local time is read on the zone's clock, across a change of date and of summer time", () => {
    expect([
      localTime(DateTime.unsafeMake("2026-01-02T00:07:00Z"), "America/Sao_Paulo"),
      localTime(DateTime.unsafeMake("2026-03-29T00:59:00Z"), "Europe/Lisbon"),
      localTime(DateTime.unsafeMake("2026-03-29T01:00:00Z"), "Europe/Lisbon"),
      localTime(DateTime.unsafeMake("2026-12-31T23:30:00Z"), "Asia/Kolkata"),
      localTime(DateTime.unsafeMake("2026-12-06T09:03:59Z"), "UTC")
    ]).toEqual([
      "1 January 2026, 21:07 (America/Sao_Paulo)",
      "29 March 2026, 00:59 (Europe/Lisbon)",
      "29 March 2026, 02:00 (Europe/Lisbon)",
      "1 January 2027, 05:00 (Asia/Kolkata)",
      "6 December 2026, 09:03 (UTC)"
    ])
  })

  it("a day is the zone's calendar day", () => {
    expect([
      localDay(DateTime.unsafeMake("2026-12-31T23:30:00Z"), "Asia/Kolkata"),
      localDay(DateTime.unsafeMake("2026-12-31T23:30:00Z"), "America/New_York"),
      localDay(DateTime.unsafeMake("2026-02-28T12:00:00Z"), "UTC")
    ]).toEqual(["1 January 2027", "31 December 2026", "28 February 2026"])
  })

  it("a reminder's wall-clock reading reads as a date and time; anything else is left as it is", () => {
    expect(["2026-03-30T09:00", "2027-01-01T00:05", "", "2026-13-01T09:00", "soon"].map(readableReading))
      .toEqual(["30 March 2026, 09:00", "1 January 2027, 00:05", "", "2026-13-01T09:00", "soon"])
  })
})
