/** The injected token counter every truncation function measures text with. */

/**
 * Counts the tokens of one text. It must be pure and deterministic; it should over-count
 * rather than under-count (an optimistic count fails on the longest, most valuable requests).
 */
export type TokenCounter = (text: string) => number
