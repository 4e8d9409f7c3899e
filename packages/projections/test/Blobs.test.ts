/** Regrouping chunks into stored pieces. */
import { expect, it } from "@effect/vitest"
import { piecesOf } from "@verbatim/projections/Blobs"

it("pieces regroup chunks at the piece size, the last one short", () => {
  const pieces = [...piecesOf([Uint8Array.of(1, 2, 3), Uint8Array.of(4), Uint8Array.of(5, 6, 7, 8, 9)], 4)].map((p) => [...p])
  expect(pieces).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9]])
})
