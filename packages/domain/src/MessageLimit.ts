/**
 * How much text one message may hold, whatever route it arrives by (the API, the page, an
 * import, a document's text): up to 1 MiB of UTF-8 is filed whole; more is refused, and nothing
 * of it is recorded.
 */

/** The most UTF-8 bytes one message's text may hold. */
export const maxMessageBytes = 1024 * 1024

/** The UTF-8 length of `text`, counted without encoding it (a lone surrogate counts as U+FFFD, 3 bytes). */
export const utf8Length = (text: string): number => {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

/** Why `text` is too long to be one message, or null when it is not. */
export const tooLong = (text: string): string | null => {
  // Each UTF-16 unit is at most 3 bytes: most texts are settled without counting.
  if (text.length * 3 <= maxMessageBytes) return null
  const bytes = utf8Length(text)
  return bytes <= maxMessageBytes
    ? null
    : `is ${bytes.toLocaleString("en")} bytes of UTF-8; one message holds at most ${maxMessageBytes.toLocaleString("en")} (1 MiB)`
}
