/** A keyed piece of a prompt that truncation keeps whole, drops whole, or (at most once) cuts. */

/** Anything with a stable key and the text the model would see for it. */
export interface KeyedText {
  /** Stable across calls (a seq, a contact id, a tool name), so reports can name it. */
  readonly key: string
  readonly text: string
}

/** A tool definition or a piece of user content, with how readily it gives way. */
export interface PromptPart extends KeyedText {
  /**
   * `null`: the part must survive; it is never dropped, and a message may be cut as a last
   * resort. A number: the part may be dropped whole when space is short, lowest rank first,
   * earlier position first among equal ranks (e.g. a contact's last-used order, so the least
   * recently used contact goes first).
   */
  readonly dropRank: number | null
}

/** A part that must survive. */
export const required = (key: string, text: string): PromptPart => ({ key, text, dropRank: null })

/** A part that may be dropped whole, lowest `rank` first. */
export const droppable = (key: string, text: string, rank: number): PromptPart => ({ key, text, dropRank: rank })
