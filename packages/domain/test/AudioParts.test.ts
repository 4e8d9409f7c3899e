/** Cutting long audio into parts at silences: every second in exactly one part. */
import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { audioParts, silencesOf } from "../src/AudioParts.js"

describe("audioParts", () => {
  it("is the whole for one part", () => {
    expect(audioParts(42.5, 1, [])).toEqual([{ start: 0, end: 42.5 }])
  })

  it("moves each cut back into the nearest silence within the last fifth of its stretch, and cuts at the mark without one", () => {
    // 300 s in three: marks at 100 and 200; a pause at 88–90 (the middle, 89, within 80..100), none near 200.
    expect(audioParts(300, 3, [{ start: 40, end: 42 }, { start: 88, end: 90 }, { start: 150, end: 151 }])).toEqual([
      { start: 0, end: 89 },
      { start: 89, end: 200 },
      { start: 200, end: 300 }
    ])
  })

  test.prop([
    fc.double({ min: 1, max: 20_000, noNaN: true }),
    fc.integer({ min: 1, max: 40 }),
    fc.array(fc.tuple(fc.double({ min: 0, max: 20_000, noNaN: true }), fc.double({ min: 0, max: 5, noNaN: true })), { maxLength: 60 })
  ])("the parts tile the audio in order, none empty, and each at most its share", (duration, parts, pauses) => {
    const silences = pauses.map(([start, length]) => ({ start, end: start + length }))
    const cut = audioParts(duration, parts, silences)
    expect(cut.length).toBe(parts)
    expect(cut[0]!.start).toBe(0)
    expect(cut.at(-1)!.end).toBe(duration)
    cut.forEach((part, i) => {
      expect(part.end).toBeGreaterThan(part.start)
      if (i > 0) expect(part.start).toBe(cut[i - 1]!.end)
      expect(part.end - part.start).toBeLessThanOrEqual(duration / parts * 1.2 + 1e-6)
    })
  })
})

describe("silencesOf", () => {
  it("pairs ffmpeg's printed starts and ends, and runs one left open to the end", () => {
    const printed = "frame:12 pts:1234\nlavfi.silence_start=1.5\nframe:40\nlavfi.silence_end=2.25\nlavfi.silence_duration=0.75\nlavfi.silence_start=9.1\n"
    expect(silencesOf(printed, 10)).toEqual([{ start: 1.5, end: 2.25 }, { start: 9.1, end: 10 }])
  })
})
