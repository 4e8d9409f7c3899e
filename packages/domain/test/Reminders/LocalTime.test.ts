/** Clock readings in IANA zones: parsing, and instants across daylight-saving changes, resolved one documented way. */
import { fc, test } from "@fast-check/vitest"
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { formatLocal, instantOf, localAt, offsetMinutes, parseLocal } from "../../src/Reminders/LocalTime.js"
import { closeZones, zoneName } from "../../src/Reminders/Zones.js"

const iso = (millis: number) => new Date(millis).toISOString()
const local = (text: string) => Option.getOrThrow(parseLocal(text))

describe("parseLocal", () => {
  it("reads YYYY-MM-DDTHH:MM of a real day and time, and nothing else", () => {
    expect(parseLocal("2026-03-29T09:00")).toEqual(Option.some({ year: 2026, month: 3, day: 29, hour: 9, minute: 0 }))
    expect(parseLocal("2028-02-29T23:59")).toEqual(Option.some({ year: 2028, month: 2, day: 29, hour: 23, minute: 59 }))
    for (const text of ["2026-02-29T09:00", "2026-02-30T09:00", "2026-13-01T09:00", "2026-04-31T09:00", "2026-03-29T24:00",
      "2026-03-29T09:60", "2026-3-29T09:00", "2026-03-29 09:00", "2026-03-29T09:00Z", "2026-03-29T09:00:00", "Friday", ""]) {
      expect(parseLocal(text), text).toEqual(Option.none())
    }
  })

  test.prop([fc.date({ min: new Date("0100-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:00Z"), noInvalidDate: true })])(
    "reads back every reading it writes",
    (date) => {
      const reading = localAt("UTC", date.getTime())
      expect(parseLocal(formatLocal(reading))).toEqual(Option.some(reading))
    }
  )
})

describe("instantOf in Europe/Lisbon", () => {
  const lisbon = "Europe/Lisbon"

  it("keeps 09:00 on the clock on both sides of the March and October changes", () => {
    expect(iso(instantOf(lisbon, local("2026-03-28T09:00")).epochMillis)).toBe("2026-03-28T09:00:00.000Z")
    expect(iso(instantOf(lisbon, local("2026-03-30T09:00")).epochMillis)).toBe("2026-03-30T08:00:00.000Z")
    expect(iso(instantOf(lisbon, local("2026-10-24T09:00")).epochMillis)).toBe("2026-10-24T08:00:00.000Z")
    expect(iso(instantOf(lisbon, local("2026-10-26T09:00")).epochMillis)).toBe("2026-10-26T09:00:00.000Z")
  })

  it("moves a reading the March change skips forward by the gap: 01:30 is 02:30 summer time", () => {
    const skipped = instantOf(lisbon, local("2026-03-29T01:30"))
    expect(skipped).toEqual({ epochMillis: Date.parse("2026-03-29T01:30:00Z"), resolution: "gap" })
    expect(formatLocal(localAt(lisbon, skipped.epochMillis))).toBe("2026-03-29T02:30")
  })

  it("takes the earlier of a reading the October change repeats: 01:30 summer time", () => {
    expect(instantOf(lisbon, local("2026-10-25T01:30"))).toEqual({ epochMillis: Date.parse("2026-10-25T00:30:00Z"), resolution: "overlap" })
    expect(offsetMinutes(lisbon, Date.parse("2026-10-25T00:30:00Z"))).toBe(60)
    expect(offsetMinutes(lisbon, Date.parse("2026-10-25T01:30:00Z"))).toBe(0)
  })
})

const zones = ["UTC", "Europe/Lisbon", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Chatham", "America/Sao_Paulo", "Asia/Kathmandu"]

describe("instantOf, for any zone and time", () => {
  test.prop([fc.constantFrom(...zones), fc.integer({ min: Date.parse("1971-01-01T00:00:00Z"), max: Date.parse("2099-12-31T00:00:00Z") })])(
    "finds the instant again from its own reading: the same one, or, in a repeated hour, the earlier",
    (zone, millis) => {
      const minute = Math.floor(millis / 60_000) * 60_000
      const reading = localAt(zone, minute)
      const found = instantOf(zone, reading)
      expect(localAt(zone, found.epochMillis)).toEqual(reading)
      if (found.resolution === "exact") expect(found.epochMillis).toBe(minute)
      else expect(found.resolution === "overlap" && found.epochMillis <= minute).toBe(true)
    }
  )

  test.prop([fc.constantFrom(...zones), fc.date({ min: new Date("1971-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true })])(
    "gives every reading an instant whose reading is it, unless the reading was skipped, and then a later one",
    (zone, date) => {
      const reading = localAt("UTC", Math.floor(date.getTime() / 60_000) * 60_000)
      const found = instantOf(zone, reading)
      const back = formatLocal(localAt(zone, found.epochMillis))
      if (found.resolution === "gap") expect(back > formatLocal(reading)).toBe(true)
      else expect(back).toBe(formatLocal(reading))
    }
  )
})

describe("zone names", () => {
  it("accepts IANA names in their own spelling and refuses the rest", () => {
    expect(zoneName("Europe/Lisbon")).toBe("Europe/Lisbon")
    expect(zoneName(" UTC ")).toBe("UTC")
    expect(zoneName("Mars/Olympus_Mons")).toBeNull()
    expect(zoneName("")).toBeNull()
  })

  it("offers the closest known names for one it does not know", () => {
    expect(closeZones("Europe/Lisbn")[0]).toBe("Europe/Lisbon")
    expect(closeZones("Lisbon")[0]).toBe("Europe/Lisbon")
    expect(closeZones("new york")[0]).toBe("America/New_York")
    expect(closeZones("Berlin", 2)).toHaveLength(2)
  })
})
