import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { DateTime } from "effect"
import { type Captured, matchByContent, minuteOf } from "../src/Inbound/ImportMatch.js"

const at = (iso: string) => DateTime.unsafeMake(iso)
const live = (id: string, iso: string, text: string): Captured => ({ providerMessageId: id, sentAt: at(iso), text })
const exported = (iso: string, text: string) => ({ sentAt: at(iso), text })
const ids = (matches: ReadonlyArray<Captured | null>) => matches.map((m) => m?.providerMessageId ?? null)

describe("matching exported messages to live ones by minute and text", () => {
  it("names the minute an instant falls in", () => {
    expect(minuteOf(at("2024-03-01T09:02:59.999Z")).map(DateTime.formatIso)).toEqual(["2024-03-01T09:02:00.000Z", "2024-03-01T09:03:00.000Z"])
  })

  it("lets a forgotten message stand for a line of its minute no kept message claims, so its words never come back", () => {
    const forgotten: Captured = { ...live("w2", "2024-03-01T09:02:30Z", ""), erased: true }
    expect(ids(matchByContent(
      [exported("2024-03-01T09:02:00Z", "Ana starts Monday"), exported("2024-03-01T09:02:00Z", "the words forgotten"), exported("2024-03-01T09:03:00Z", "new")],
      [live("w1", "2024-03-01T09:02:10Z", "Ana starts Monday"), forgotten]
    ))).toEqual(["w1", "w2", null])
  })

  it("finds a live message sent seconds into the minute an export wrote without seconds", () => {
    expect(ids(matchByContent([exported("2024-03-01T09:02:00Z", "Ana starts Monday")], [live("w1", "2024-03-01T09:02:41Z", "Ana starts Monday")])))
      .toEqual(["w1"])
  })

  it("never matches another minute, another text, or text differing in case or spacing", () => {
    expect(ids(matchByContent(
      [exported("2024-03-01T09:02:00Z", "ok"), exported("2024-03-01T09:03:00Z", "Ok"), exported("2024-03-01T09:04:00Z", "ok ")],
      [live("w1", "2024-03-01T09:03:00Z", "ok"), live("w2", "2024-03-01T09:04:00Z", "ok")]
    ))).toEqual([null, null, null])
  })

  it("lets one live message stand for one exported message: two identical lines need two live ones", () => {
    const twice = [exported("2024-03-01T09:02:00Z", "ok"), exported("2024-03-01T09:02:00Z", "ok")]
    expect(ids(matchByContent(twice, [live("w1", "2024-03-01T09:02:10Z", "ok")]))).toEqual(["w1", null])
    expect(ids(matchByContent(twice, [live("w2", "2024-03-01T09:02:30Z", "ok"), live("w1", "2024-03-01T09:02:10Z", "ok")])))
      .toEqual(["w1", "w2"])
  })

  it("counts a live message found twice (by two queries) once", () => {
    const w1 = live("w1", "2024-03-01T09:02:10Z", "ok")
    expect(ids(matchByContent([exported("2024-03-01T09:02:00Z", "ok"), exported("2024-03-01T09:02:00Z", "ok")], [w1, w1]))).toEqual(["w1", null])
  })

  const base = Date.UTC(2024, 2, 1, 9)
  const text = fc.constantFrom("ok", "Ok", "ok ", "Ana", "")
  const instant = fc.integer({ min: 0, max: 5 * 60_000 }).map((offset) => DateTime.unsafeMake(base + offset))
  const exports = fc.array(fc.record({ sentAt: instant, text }), { maxLength: 12 })
  const lives = fc.uniqueArray(fc.record({ providerMessageId: fc.string({ minLength: 1, maxLength: 4 }), sentAt: instant, text }), {
    maxLength: 12,
    selector: (c) => c.providerMessageId
  })

  test.prop([exports, lives], { numRuns: propertyRuns() })(
    "pairs only the same minute and text, uses each live message once, and leaves none that could have been paired",
    (messages, captured) => {
      const matches = matchByContent(messages, captured)
      const key = (m: { sentAt: DateTime.Utc; text: string }) => `${DateTime.formatIso(minuteOf(m.sentAt)[0])}|${m.text}`
      const used = matches.flatMap((m) => (m === null ? [] : [m.providerMessageId]))
      expect(new Set(used).size).toBe(used.length)
      matches.forEach((m, i) => {
        if (m !== null) expect(key(m)).toBe(key(messages[i]!))
      })
      for (const k of new Set(messages.map(key))) {
        const wanted = messages.filter((m) => key(m) === k).length
        const there = captured.filter((c) => key(c) === k).length
        expect(matches.filter((m, i) => m !== null && key(messages[i]!) === k).length).toBe(Math.min(wanted, there))
      }
    }
  )
})
