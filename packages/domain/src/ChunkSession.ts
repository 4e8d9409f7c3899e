/** Splitting a session that does not fit one request into consecutive chunks that each do. */
import type { KeyedText } from "./PromptPart.js"
import type { TokenCounter } from "./TokenCounter.js"
import { truncateText } from "./TruncateText.js"

/** Consecutive messages planned in one request. */
export interface Chunk<P extends KeyedText = KeyedText> {
  /** In session order; unmodified, except a message too large for any chunk, alone and cut. */
  readonly messages: ReadonlyArray<P>
  /** The messages' tokens, each counted once, added up: at most the budget. */
  readonly tokens: number
  /** Key of the message shown cut and marked (its note still carries the full text). */
  readonly cut: string | null
}

/** A message's text cut to fit `budget` tokens and marked (`truncateText`). */
const cutText = <P extends KeyedText>(message: P, budget: number, count: TokenCounter): P => ({ ...message, text: truncateText(message.text, budget, count) })

/**
 * Greedy consecutive chunks, each within `budget` (≥ 0) tokens: a chunk takes messages while
 * they fit and the next message starts the next chunk. Chunks together hold every message
 * once, in order. A message larger than the budget alone goes in a chunk of its own, cut and
 * marked by `cut` (by default its text, by `truncateText`; a caller that shows the message in a
 * form of its own cuts it there, once). Each message is counted once (a cut one about
 * log2(graphemes) times more).
 */
export const chunkSession = <P extends KeyedText>(
  messages: ReadonlyArray<P>,
  budget: number,
  count: TokenCounter,
  cut: (message: P, budget: number, count: TokenCounter) => P = cutText
): ReadonlyArray<Chunk<P>> => {
  const chunks: Array<Chunk<P>> = []
  let current: Array<P> = []
  let tokens = 0
  const close = () => {
    if (current.length > 0) chunks.push({ messages: current, tokens, cut: null })
    current = []
    tokens = 0
  }
  for (const message of messages) {
    const size = count(message.text)
    if (size > budget) {
      close()
      const shortened = cut(message, budget, count)
      chunks.push({ messages: [shortened], tokens: count(shortened.text), cut: message.key })
      continue
    }
    if (tokens + size > budget) close()
    current.push(message)
    tokens += size
  }
  close()
  return chunks
}
