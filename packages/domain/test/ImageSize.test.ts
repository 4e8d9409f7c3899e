import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { imageSize } from "../src/ImageSize.js"

/** A real image of the format and size, drawn by ImageMagick. */
const drawn = (format: string, width: number, height: number) =>
  new Uint8Array(execFileSync("convert", ["-size", `${width}x${height}`, "gradient:white-navy", `${format}:-`]))

describe("image sizes", () => {
  it("reads the type and pixel size of real PNG, JPEG, GIF and WebP files", () => {
    expect([
      imageSize(drawn("png", 2000, 1500)),
      imageSize(drawn("jpeg", 1280, 960)),
      imageSize(drawn("gif", 31, 7)),
      imageSize(drawn("webp", 640, 480))
    ]).toEqual([
      { mediaType: "image/png", width: 2000, height: 1500 },
      { mediaType: "image/jpeg", width: 1280, height: 960 },
      { mediaType: "image/gif", width: 31, height: 7 },
      { mediaType: "image/webp", width: 640, height: 480 }
    ])
  })

  it("bytes that are no image, or an image cut short, have no size", () => {
    expect([
      imageSize(new TextEncoder().encode("%PDF-1.7 not an image at all")),
      imageSize(drawn("png", 10, 10).subarray(0, 12)),
      imageSize(Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 0, 16, ...new Array(30).fill(0)))
    ]).toEqual([null, null, null])
  })
})
