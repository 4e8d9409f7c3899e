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

/** A quoted instruction that matched none of the messages it was meant for. */
export const directiveNotFound = (text: string, seqs: ReadonlyArray<number>): PlanWarning =>
  warning(
    "directive-not-found",
    seqs,
    seqs.length === 0
      ? `The quoted instruction "${text}" did not match any message of its note, so nothing was removed.`
      : `The quoted instruction "${text}" did not match ${listSeqs(seqs)} exactly, so the ${
        seqs.length === 1 ? "message was" : "messages were"
      } kept whole.`
  )

/** A quoted instruction overlapping one already cut from the same message. */
export const directiveOverlap = (text: string, seq: number): PlanWarning =>
  warning(
    "directive-overlap",
    [seq],
    `The quoted instruction "${text}" overlaps another one in message ${seq}, so it was kept in the note.`
  )

/** A quoted instruction that not every note claiming the message agreed on. */
export const directiveDisputed = (text: string, seq: number): PlanWarning =>
  warning(
    "directive-disputed",
    [seq],
    `Only some notes quoted "${text}" as an instruction in message ${seq}, so it was kept in the note.`
  )

/** Plan seqs that name no message of the session. */
export const unknownSeqs = (seqs: ReadonlyArray<number>): PlanWarning =>
  warning("unknown-seq", seqs, `The plan referred to ${listSeqs(seqs)}, which this session does not have; ignored.`)

/** Messages the plan did not place anywhere. */
export const unplanned = (seqs: ReadonlyArray<number>): PlanWarning =>
  warning("unplanned", seqs, `The plan did not place ${listSeqs(seqs)}, so ${waiting(seqs)} for your answer.`)

/** Messages claimed by more than one owner. */
export const contested = (seqs: ReadonlyArray<number>): PlanWarning =>
  warning("contested", seqs, `The plan gave ${listSeqs(seqs)} to more than one owner, so ${waiting(seqs)} for your answer.`)

/** A message planned both as a note and as addressed to the bot. */
export const botMessageKeptAsNote = (seq: number): PlanWarning =>
  warning(
    "bot-message-kept-as-note",
    [seq],
    `Message ${seq} was planned both as a note and as addressed to the bot, so it was kept in the note.`
  )

const compareSeqLists = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): number => {
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
export const canonicalWarnings = (warnings: ReadonlyArray<PlanWarning>): Array<PlanWarning> =>
  canonicaliseWarnings(warnings.slice())

/** `canonicalWarnings` in place: sorts and deduplicates the array it is given, and returns it. */
export const canonicaliseWarnings = (warnings: Array<PlanWarning>): Array<PlanWarning> => {
  warnings.sort(compareWarnings)
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
