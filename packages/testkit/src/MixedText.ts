/** Long texts of mixed scripts and emoji, of an exact UTF-8 size, for the tests and benchmarks of long messages. */

/** Latin with accents, Devanagari, Japanese, a ZWJ family, flags, a combining mark, line breaks. */
const pieces = ["Ana mudou-se para o Porto em maio.", " नमस्ते दोस्त", " 東京で会いましょう。", " 👨‍👩‍👧‍👦", " 🇵🇹🇧🇷", " café e\u0301", "\n"]

/** Exactly `bytes` of UTF-8, the pieces in turn, ending in letters (so tidying a note's edges keeps it whole). */
export const mixedText = (bytes: number): string => {
  const parts: Array<string> = []
  let size = 0
  for (let i = 0; ; i++) {
    const piece = pieces[i % pieces.length]!
    const pieceBytes = Buffer.byteLength(piece)
    if (size + pieceBytes + 1 > bytes) break
    parts.push(piece)
    size += pieceBytes
  }
  return parts.join("") + "x".repeat(bytes - size)
}
