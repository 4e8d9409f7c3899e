/**
 * What every image reader does before it reads: the bytes joined, the format and size read from
 * the header alone, and an image that would decode to more than `maxPixels` refused before it is
 * decoded (a decompression bomb). Decoding and re-encoding happen in process by libvips (`sharp`)
 * on its thread pool, never by a program run on the stranger's own file. libvips is loaded with
 * the first image, not at start: it holds about 20 MB, for nothing on a server no one sends photos.
 */
import { type ImageSize, imageSize } from "@verbatim/domain/ImageSize"
import type { Bytes } from "@verbatim/projections/Blobs"
import { Effect } from "effect"
import type sharp from "sharp"
import { MediaError } from "./MediaError.js"

/** The most pixels an image may have: past it, decoding alone could take the process's memory. */
export const maxPixels = 100_000_000

/** How long one libvips pipeline may take before it is given up. */
const vipsSeconds = 30

/** The library, loaded once when first asked for. */
let loaded: Promise<typeof sharp> | undefined
const library = () => (loaded ??= import("sharp").then((module) => module.default))

const fail = (reason: string) => new MediaError({ stage: "transcribe", permanent: true, reason })

/** The stored chunks as one buffer. */
export const joined = (image: Bytes): Buffer =>
  Buffer.concat(image.chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)))

/** The image's bytes and what its header says, or why it is not read. */
export const checkedImage = (image: Bytes): Effect.Effect<{ readonly bytes: Buffer; readonly size: ImageSize }, MediaError> => {
  const bytes = joined(image)
  const size = imageSize(bytes)
  if (size === null) return Effect.fail(fail("the file is not a PNG, JPEG, GIF or WebP image"))
  if (size.width * size.height > maxPixels) {
    return Effect.fail(fail(`the image is ${size.width}×${size.height} pixels, more than the ${maxPixels / 1_000_000} megapixels read`))
  }
  return Effect.succeed({ bytes, size })
}

/**
 * The image decoded, turned upright (its EXIF orientation), put through `pipeline` and encoded
 * again; `doing` names the step in the reason when the image does not decode.
 */
export const transformed = (bytes: Buffer, doing: string, pipeline: (image: sharp.Sharp) => sharp.Sharp) =>
  Effect.tryPromise({
    try: () =>
      library().then((vips) =>
        pipeline(vips(bytes, { limitInputPixels: maxPixels, failOn: "error" }).rotate()).timeout({ seconds: vipsSeconds }).toBuffer()
      ),
    catch: (error) => fail(`the image could not be ${doing} (${error instanceof Error ? error.message : String(error)})`)
  })
