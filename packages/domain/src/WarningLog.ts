/** WarningLog: the warnings of one plan application, recorded as code, seqs and quoted text, and worded only when read. */
import type { PlanWarning, WarningCode } from "./Decision.js"
import { compareNumbers, compareSeqLists, compareStrings, wording } from "./Warnings.js"

/**
 * A warning whose `message` is worded on its first read and kept. `message` is an own,
 * enumerable, read-only accessor, so spreading, `JSON.stringify`, schema encoding and equality
 * checks see the same three fields in the same order as in a plain `{ code, seqs, message }`.
 * A plan's warnings are many and few of them are ever read, so most are never worded.
 */
class LoggedWarning implements PlanWarning {
  /** One shared accessor: every warning has the same shape, so V8 shares one map among them. */
  static readonly #message: PropertyDescriptor = {
    enumerable: true,
    get(this: LoggedWarning): string {
      return (this.#worded ??= wording(this.code, this.seqs, this.#text))
    }
  }
  readonly code: WarningCode
  readonly seqs: ReadonlyArray<number>
  declare readonly message: string
  readonly #text: string
  #worded: string | undefined = undefined

  constructor(code: WarningCode, seqs: ReadonlyArray<number>, text: string) {
    this.code = code
    this.seqs = seqs
    this.#text = text
    Object.defineProperty(this, "message", LoggedWarning.#message)
  }

  /**
   * The order of `Warnings.canonicalWarnings` (code, seqs, then message), without wording the
   * messages. Two warnings with the same code and equal seqs are worded as one prefix, their
   * quoted text, and one suffix, so their messages compare as their texts do, unless one text is
   * a prefix of the other; that case, and seqs whose comparison is undefined (NaN, from two
   * infinities), compare the words themselves.
   */
  static compare(a: LoggedWarning, b: LoggedWarning): number {
    const byCode = compareStrings(a.code, b.code)
    if (byCode !== 0) return byCode
    const bySeqs = compareSeqLists(a.seqs, b.seqs)
    if (bySeqs !== 0 && !Number.isNaN(bySeqs)) return bySeqs
    if (bySeqs === 0) {
      if (a.#text === b.#text) return 0
      if (!a.#text.startsWith(b.#text) && !b.#text.startsWith(a.#text)) return compareStrings(a.#text, b.#text)
    }
    return compareStrings(a.message, b.message)
  }

  /** Same code and equal seqs make the same words exactly when the texts are equal. */
  static same(a: LoggedWarning, b: LoggedWarning): boolean {
    return a.code === b.code && a.#text === b.#text && compareSeqLists(a.seqs, b.seqs) === 0
  }
}

/** Warnings as they are found, each with its quoted text (empty for the codes that quote none). */
export interface WarningLog {
  readonly entries: Array<LoggedWarning>
}

/** An empty log. */
export const make = (): WarningLog => ({ entries: [] })

/**
 * Records a warning. `seqs` is kept, not copied, so the caller passes a list it will not change
 * (warnings may share one); it is sorted ascending here when it is not already (the callers'
 * lists always are).
 */
export const record = (log: WarningLog, code: WarningCode, seqs: Array<number>, text = ""): void => {
  for (let i = 1; i < seqs.length; i++) {
    if (!(seqs[i - 1]! < seqs[i]!)) {
      seqs.sort(compareNumbers)
      break
    }
  }
  log.entries.push(new LoggedWarning(code, seqs, text))
}

/**
 * The logged warnings deduplicated and in canonical order, as `Warnings.canonicalWarnings`
 * gives them, with the same messages. Sorts and compacts the log's own list, and returns it.
 */
export const toWarnings = (log: WarningLog): Array<PlanWarning> => {
  const { entries } = log
  entries.sort(LoggedWarning.compare)
  let kept = 0
  for (let i = 0; i < entries.length; i++) {
    if (kept === 0 || !LoggedWarning.same(entries[kept - 1]!, entries[i]!)) entries[kept++] = entries[i]!
  }
  entries.length = kept
  return entries
}
