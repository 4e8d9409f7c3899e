/** The one byte range a media player asks for, clipped to the file. */
import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { byteRange } from "../src/ByteRange.js"

describe("byteRange", () => {
  it("reads the forms a player sends, clipped to the file", () => {
    expect([
      byteRange("bytes=0-", 1000),
      byteRange("bytes=500-999", 1000),
      byteRange("bytes=500-5000", 1000),
      byteRange("bytes=-200", 1000),
      byteRange("bytes=-5000", 1000)
    ]).toEqual([
      { _tag: "Part", start: 0, end: 999 },
      { _tag: "Part", start: 500, end: 999 },
      { _tag: "Part", start: 500, end: 999 },
      { _tag: "Part", start: 800, end: 999 },
      { _tag: "Part", start: 0, end: 999 }
    ])
  })

  it("a range past the end cannot be had; anything it does not understand gets the whole file", () => {
    expect([byteRange("bytes=1000-", 1000), byteRange("bytes=-0", 1000), byteRange("bytes=0-", 0)]).toEqual(
      Array(3).fill({ _tag: "Unsatisfiable" })
    )
    expect([undefined, "", "items=0-5", "bytes=0-5,10-20", "bytes=9-3", "bytes=-", "bytes=a-b"].map((h) => byteRange(h, 1000))).toEqual(
      Array(7).fill({ _tag: "Whole" })
    )
  })

  test.prop([fc.nat(10_000), fc.option(fc.nat(20_000), { nil: undefined }), fc.option(fc.nat(20_000), { nil: undefined })])(
    "a part always lies within the file and is never empty",
    (size, first, last) => {
      const range = byteRange(`bytes=${first ?? ""}-${last ?? ""}`, size)
      if (range._tag !== "Part") return
      expect(range.start).toBeGreaterThanOrEqual(0)
      expect(range.end).toBeLessThan(size)
      expect(range.end).toBeGreaterThanOrEqual(range.start)
    }
  )
})
