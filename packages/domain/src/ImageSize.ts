/** An image's type and pixel size, read from its first bytes (PNG, JPEG, GIF, WebP), without decoding it. */

export interface ImageSize {
  readonly mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp"
  readonly width: number
  readonly height: number
}

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to))
const u16be = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0)
const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8)
const u24le = (b: Uint8Array, at: number) => u16le(b, at) | ((b[at + 2] ?? 0) << 16)
const u32be = (b: Uint8Array, at: number) => (u16be(b, at) * 65536) + u16be(b, at + 2)

/** JPEG: the first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC) holds height then width. */
const jpeg = (b: Uint8Array): ImageSize | null => {
  for (let at = 2; at + 9 < b.length;) {
    if (b[at] !== 0xff) return null
    const marker = b[at + 1] ?? 0
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2
      continue
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { mediaType: "image/jpeg", height: u16be(b, at + 5), width: u16be(b, at + 7) }
    }
    at += 2 + u16be(b, at + 2)
  }
  return null
}

const webp = (b: Uint8Array): ImageSize | null => {
  const chunk = ascii(b, 12, 16)
  if (chunk === "VP8X") return { mediaType: "image/webp", width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 }
  if (chunk === "VP8 ") return { mediaType: "image/webp", width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff }
  if (chunk === "VP8L") {
    const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24)
    return { mediaType: "image/webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
  }
  return null
}

/** The image's type and size, or null when the bytes are none of the four formats (or are cut short). */
export const imageSize = (bytes: Uint8Array): ImageSize | null => {
  if (bytes.length < 24) return null
  if (ascii(bytes, 1, 4) === "PNG" && ascii(bytes, 12, 16) === "IHDR") {
    return { mediaType: "image/png", width: u32be(bytes, 16), height: u32be(bytes, 20) }
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpeg(bytes)
  if (ascii(bytes, 0, 4) === "GIF8") return { mediaType: "image/gif", width: u16le(bytes, 6), height: u16le(bytes, 8) }
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return webp(bytes)
  return null
}
