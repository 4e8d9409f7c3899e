/** Attachment bytes stored by content, run against every backend. */
import { expect, it } from "@effect/vitest"
import { Blobs, pieceBytes, sha256Of } from "@verbatim/projections/Blobs"
import type { Services } from "@verbatim/projections/Store"
import { Effect, Option } from "effect"
import type { Layer } from "effect"

/** `n` bytes of a repeating pattern that no two offsets of a piece share. */
const patterned = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251)

const concat = (chunks: ReadonlyArray<Uint8Array>) => Buffer.concat(chunks.map((c) => Buffer.from(c)))

/** Register the suite for one backend; each test gets a fresh database. */
export const blobsConformance = (layer: () => Layer.Layer<Services, unknown>) => {
  it.effect("bytes stored in network-sized chunks come back whole, in order, under their sha256", () =>
    Effect.gen(function*() {
      const blobs = yield* Blobs
      // Two and a half pieces, arriving as uneven chunks that straddle the piece boundaries.
      const whole = patterned(pieceBytes * 2 + pieceBytes / 2, 7)
      const chunks = [whole.subarray(0, 1000), whole.subarray(1000, pieceBytes + 3), whole.subarray(pieceBytes + 3)]
      const stored = yield* blobs.put({ chunks, size: whole.length, mimeType: "audio/ogg" })
      expect(stored).toEqual({ sha256: sha256Of([whole]), size: whole.length, mimeType: "audio/ogg" })
      const back = Option.getOrThrow(yield* blobs.get(stored.sha256))
      expect({ size: back.size, mimeType: back.mimeType, pieces: back.chunks.length }).toEqual({ size: whole.length, mimeType: "audio/ogg", pieces: 3 })
      expect(concat(back.chunks).equals(Buffer.from(whole))).toBe(true)
    }).pipe(Effect.provide(layer())))

  it.effect("the same bytes stored twice are one blob; other bytes are another; unknown hashes have none", () =>
    Effect.gen(function*() {
      const blobs = yield* Blobs
      const a = patterned(5000, 1)
      const b = patterned(5000, 2)
      const first = yield* blobs.put({ chunks: [a], size: a.length, mimeType: null })
      const again = yield* blobs.put({ chunks: [a.subarray(0, 10), a.subarray(10)], size: a.length, mimeType: "image/png" })
      const other = yield* blobs.put({ chunks: [b], size: b.length, mimeType: "image/png" })
      expect(again).toEqual({ ...first, mimeType: "image/png" })
      expect(other.sha256).not.toBe(first.sha256)
      // The first store's type stays: a blob is written once.
      expect(Option.map(yield* blobs.get(first.sha256), (bytes) => [bytes.mimeType, concat(bytes.chunks).equals(Buffer.from(a))])).toEqual(
        Option.some([null, true])
      )
      expect(yield* blobs.get("0".repeat(64))).toEqual(Option.none())
    }).pipe(Effect.provide(layer())))

  it.effect("a range comes back byte for byte from the pieces that hold it alone, across their boundaries; its size and type without its bytes", () =>
    Effect.gen(function*() {
      const blobs = yield* Blobs
      const whole = patterned(pieceBytes * 2 + pieceBytes / 2, 3)
      const stored = yield* blobs.put({ chunks: [whole.subarray(0, 777), whole.subarray(777)], size: whole.length, mimeType: "video/mp4" })
      expect(yield* blobs.about(stored.sha256)).toEqual(Option.some({ size: whole.length, mimeType: "video/mp4" }))
      const ranges: ReadonlyArray<readonly [number, number]> = [
        [0, 1],
        [0, whole.length],
        [pieceBytes - 2, pieceBytes + 2],
        [pieceBytes, pieceBytes * 2],
        [10, pieceBytes * 2 + 10],
        [whole.length - 1, whole.length],
        [5, 5]
      ]
      const read = yield* Effect.forEach(ranges, ([start, end]) =>
        Effect.map(blobs.range(stored.sha256, start, end), Option.map((bytes) => ({
          same: concat(bytes.chunks).equals(Buffer.from(whole.subarray(start, end))),
          size: bytes.size,
          // The pieces a range was read from: never more than it touches.
          pieces: bytes.chunks.length
        }))))
      expect(read).toEqual([
        Option.some({ same: true, size: 1, pieces: 1 }),
        Option.some({ same: true, size: whole.length, pieces: 3 }),
        Option.some({ same: true, size: 4, pieces: 2 }),
        Option.some({ same: true, size: pieceBytes, pieces: 1 }),
        Option.some({ same: true, size: pieceBytes * 2, pieces: 3 }),
        Option.some({ same: true, size: 1, pieces: 1 }),
        Option.some({ same: true, size: 0, pieces: 0 })
      ])
      expect([yield* blobs.range("0".repeat(64), 0, 1), yield* blobs.about("0".repeat(64))]).toEqual([Option.none(), Option.none()])
    }).pipe(Effect.provide(layer())))

  it.effect("an empty file is a blob of no bytes", () =>
    Effect.gen(function*() {
      const blobs = yield* Blobs
      const stored = yield* blobs.put({ chunks: [], size: 0, mimeType: "audio/ogg" })
      expect(stored.sha256).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
      expect(yield* blobs.get(stored.sha256)).toEqual(Option.some({ chunks: [], size: 0, mimeType: "audio/ogg" }))
    }).pipe(Effect.provide(layer())))
}
