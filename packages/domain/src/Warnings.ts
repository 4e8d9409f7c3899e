/** Plan warnings: plain-words constructors and one canonical order, so output never depends on plan order. */
import type { PlanWarning, WarningCode } from "./Decision.js"

/** A warning with its seqs sorted ascending. */
export const warning = (code: WarningCode, seqs: ReadonlyArray<number>, message: string): PlanWarning => {
  const copy = seqs.slice()
  for (let i = 1; i < copy.length; i++) {
    if (!(copy[i - 1]! < copy[i]!)) return { code, seqs: copy.sort(compareNumbers), message }
  }
  return { code, seqs: copy, message }
}

/** Numeric order that is total even for NaN (last), so sorting never depends on input order. */
export const compareNumbers = (a: number, b: number): number => {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1
  if (Number.isNaN(b)) return -1
  return a - b
}

/** Code-unit string order: locale-independent, so every machine sorts alike. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const listSeqs = (seqs: ReadonlyArray<number>): string =>
  `${seqs.length === 1 ? "message" : "messages"} ${seqs.join(", ")}`

const waiting = (seqs: ReadonlyArray<number>): string => (seqs.length === 1 ? "it waits" : "they wait")

/**
 * The plain words of a warning. `text` is the quoted instruction of the `directive-…` codes
 * (ignored by the others), and the single-seq codes name `seqs[0]`. Every message is a fixed
 * prefix, the quoted text, then a suffix that depends only on the code and the seqs: the
 * canonical order relies on it (`WarningLog`).
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

/** A quoted instruction that matched none of the messages it was meant for. */
export const directiveNotFound = (text: string, seqs: ReadonlyArray<number>): PlanWarning =>
  warning("directive-not-found", seqs, wording("directive-not-found", seqs, text))

/** A quoted instruction overlapping one already cut from the same message. */
export const directiveOverlap = (text: string, seq: number): PlanWarning =>
  warning("directive-overlap", [seq], wording("directive-overlap", [seq], text))

/** A quoted instruction that not every note claiming the message agreed on. */
export const directiveDisputed = (text: string, seq: number): PlanWarning =>
  warning("directive-disputed", [seq], wording("directive-disputed", [seq], text))

/** Plan seqs that name no message of the session. */
export const unknownSeqs = (seqs: ReadonlyArray<number>): PlanWarning =>
  warning("unknown-seq", seqs, wording("unknown-seq", seqs, ""))

/** Messages the plan did not place anywhere. */
export const unplanned = (seqs: ReadonlyArray<number>): PlanWarning => warning("unplanned", seqs, wording("unplanned", seqs, ""))

/** Messages claimed by more than one owner. */
export const contested = (seqs: ReadonlyArray<number>): PlanWarning => warning("contested", seqs, wording("contested", seqs, ""))

/** A message planned both as a note and as addressed to the bot. */
export const botMessageKeptAsNote = (seq: number): PlanWarning =>
  warning("bot-message-kept-as-note", [seq], wording("bot-message-kept-as-note", [seq], ""))

/** Lexicographic order of seq lists by `compareNumbers`, shorter first on a tie. */
export const compareSeqLists = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): number => {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const order = compareNumbers(a[i]!, b[i]!)
    if (order !== 0) return order
  }
  return a.length - b.length
}

const compareWarnings = (a: PlanWarning, b: PlanWarning): number =>
  compareStrings(a.code, b.code) || compareSeqLists(a.seqs, b.seqs) || compareStrings(a.message, b.message)

/** Warnings deduplicated and sorted by code, seqs, then message. */
export const canonicalWarnings = (input: ReadonlyArray<PlanWarning>): Array<PlanWarning> => {
  const warnings = input.slice().sort(compareWarnings)
  let kept = 0
  for (let i = 0; i < warnings.length; i++) {
    const w = warnings[i]!
    const previous = kept === 0 ? undefined : warnings[kept - 1]!
    if (
      previous === undefined || previous.code !== w.code || previous.message !== w.message ||
      compareSeqLists(previous.seqs, w.seqs) !== 0
    ) warnings[kept++] = w
  }
  warnings.length = kept
  return warnings
}
