/**
 * Plan warnings, the one way they are made: recorded as code, seqs and quoted text, worded in
 * plain words only when read, and put in one canonical order, so output never depends on plan
 * order.
 */
import type { PlanWarning, WarningCode } from "./Decision.js"
import { compareNumbers, compareSeqLists, compareStrings } from "./Order.js"

const listSeqs = (seqs: ReadonlyArray<number>): string =>
  `${seqs.length === 1 ? "message" : "messages"} ${seqs.join(", ")}`

const waiting = (seqs: ReadonlyArray<number>): string => (seqs.length === 1 ? "it waits" : "they wait")

/**
 * The plain words of a warning. `text` is the quoted instruction of the `directive-…` codes
 * (ignored by the others), and the single-seq codes name `seqs[0]`. Every message is a fixed
 * prefix, the quoted text, then a suffix that depends only on the code and the seqs: the
 * canonical order relies on it (`LoggedWarning.compare`).
 */
export const wording = (code: WarningCode, seqs: ReadonlyArray<number>, text: string): string => {
  switch (code) {
    case "directive-not-found":
      return seqs.length === 0
        ? `The quoted instruction "${text}" did not match any message of its note, so nothing was removed.`
        : `The quoted instruction "${text}" did not match ${listSeqs(seqs)} exactly, so the ${
          seqs.length === 1 ? "message was" : "messages were"
        } kept whole.`
    case "directive-overlap":
      return `The quoted instruction "${text}" overlaps another one in message ${seqs[0]}, so it was kept in the note.`
    case "directive-disputed":
      return `Only some notes quoted "${text}" as an instruction in message ${seqs[0]}, so it was kept in the note.`
    case "unknown-seq":
      return `The plan referred to ${listSeqs(seqs)}, which this session does not have; ignored.`
    case "unplanned":
      return `The plan did not place ${listSeqs(seqs)}, so ${waiting(seqs)} for your answer.`
    case "contested":
      return `The plan gave ${listSeqs(seqs)} to more than one owner, so ${waiting(seqs)} for your answer.`
    case "bot-message-kept-as-note":
      return `Message ${seqs[0]} was planned both as a note and as addressed to the bot, so it was kept in the note.`
    case "model-text-repaired":
      return "Some of the plan's text could not be stored as given (U+0000 or a broken character), so it was cleaned first."
  }
}

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
   * The order of the worded warnings (code, seqs, then message), without wording the
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

/**
 * One warning, worded when read. `seqs` is kept as given, so the caller passes it sorted
 * ascending (a single seq always is).
 */
export const warning = (code: WarningCode, seqs: ReadonlyArray<number>, text = ""): PlanWarning =>
  new LoggedWarning(code, seqs, text)

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
 * The logged warnings deduplicated and in canonical order (code, seqs, then message, as if
 * compared worded), with the same messages. Sorts and compacts the log's own list, and returns it.
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
