/**
 * An answer scored against the quotes a person would accept: a kept quote is right when it
 * overlaps an expected quote of the same message; precision is the share of kept quotes that are
 * right, recall the share of expected quotes some kept quote overlaps. Both are 1 for an answer
 * of nothing to a question nothing answers.
 */
/** A quote as scored: a message and its characters. */
export interface ExpectedQuote {
  readonly messageId: string
  readonly start: number
  readonly end: number
}

export interface QuoteTally {
  readonly kept: number
  readonly right: number
  readonly expected: number
  readonly found: number
}

export const emptyQuoteTally: QuoteTally = { kept: 0, right: 0, expected: 0, found: 0 }

const overlaps = (a: ExpectedQuote, b: ExpectedQuote) =>
  a.messageId === b.messageId && a.start < b.end && b.start < a.end

export const scoreQuotes = (kept: ReadonlyArray<ExpectedQuote>, expected: ReadonlyArray<ExpectedQuote>): QuoteTally => ({
  kept: kept.length,
  right: kept.filter((k) => expected.some((e) => overlaps(k, e))).length,
  expected: expected.length,
  found: expected.filter((e) => kept.some((k) => overlaps(k, e))).length
})

export const addQuoteTallies = (a: QuoteTally, b: QuoteTally): QuoteTally => ({
  kept: a.kept + b.kept,
  right: a.right + b.right,
  expected: a.expected + b.expected,
  found: a.found + b.found
})

export const precision = (t: QuoteTally): number => (t.kept === 0 ? (t.expected === 0 ? 1 : 0) : t.right / t.kept)
export const recall = (t: QuoteTally): number => (t.expected === 0 ? 1 : t.found / t.expected)
