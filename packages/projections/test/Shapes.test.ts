import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { padded, shapedChunks, sizesFor } from "../src/internal/Shapes.js"

const isPowerOfTwo = (n: number) => n >= 1 && (n & (n - 1)) === 0

describe("Shapes", () => {
  it("splits a count into powers of two no larger than the limit, largest first", () => {
    expect(sizesFor(37, 256)).toEqual([32, 4, 1])
    expect(sizesFor(600, 500)).toEqual([256, 256, 64, 16, 8])
    expect(sizesFor(0, 256)).toEqual([])
    fc.assert(fc.property(fc.nat(5000), fc.integer({ min: 1, max: 1000 }), (count, max) => {
      const sizes = sizesFor(count, max)
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(count)
      for (const size of sizes) expect(isPowerOfTwo(size) && size <= max).toBe(true)
      expect([...sizes].sort((a, b) => b - a)).toEqual(sizes)
    }))
  })

  it("cuts items into chunks of those sizes that join back to the items in order", () => {
    expect(shapedChunks(["a", "b", "c"], 256)).toEqual([["a", "b"], ["c"]])
    fc.assert(fc.property(fc.array(fc.string(), { maxLength: 700 }), fc.integer({ min: 1, max: 300 }), (items, max) => {
      const chunks = shapedChunks(items, max)
      expect(chunks.flat()).toEqual(items)
      for (const chunk of chunks) expect(isPowerOfTwo(chunk.length) && chunk.length <= max).toBe(true)
    }))
  })

  it("pads a list to a power of two with its last value, so an IN list matches the same rows", () => {
    expect(padded(["a", "b", "c"])).toEqual(["a", "b", "c", "c"])
    expect(padded(["a", "b"])).toEqual(["a", "b"])
    expect(padded([])).toEqual([])
    fc.assert(fc.property(fc.array(fc.integer(), { minLength: 1, maxLength: 600 }), (values) => {
      const out = padded(values)
      expect(isPowerOfTwo(out.length) && out.length < 2 * values.length + 1).toBe(true)
      expect(out.slice(0, values.length)).toEqual(values)
      expect(new Set(out)).toEqual(new Set(values))
    }))
  })
})
