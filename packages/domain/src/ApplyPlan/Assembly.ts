/** Note assembly: a body built from message text minus agreed directives, with provenance down to the character. */
import type { PlanWarning, Segment } from "../Decision.js"
import type { MessageId } from "../Ids.js"
import * as IntList from "../IntList.js"
import type { MessageText } from "../Message.js"
import { findVerbatim, isWhitespace } from "./TextMatch.js"
import { compareNumbers, compareStrings } from "../Order.js"
import * as WarningLog from "../WarningLog.js"

/** What goes between two messages of a body: a blank line. */
export const separator = "\n\n"

/** A directive to remove from one message of a note. */
export interface NoteDirective {
  readonly messageId: MessageId
  readonly text: string
}

/** A span of a message, in UTF-16 offsets. */
export interface Span {
  readonly messageId: MessageId
  readonly start: number
  readonly end: number
}

/** A directive actually removed: where, and what. */
export interface Cut extends Span {
  readonly seq: number
  readonly text: string
}

/** A note body with everything needed to audit it back to its messages. */
export interface AssembledNote {
  readonly body: string
  readonly segments: Array<Segment>
  readonly cuts: Array<Cut>
  /** Whitespace removed by tidying at cuts and message edges. */
  readonly dropped: Array<Span>
  readonly warnings: Array<PlanWarning>
}

const uniqueBySeq = (messages: ReadonlyArray<MessageText>): ReadonlyArray<MessageText> => {
  if (messages.every((message, i) => i === 0 || messages[i - 1]!.seq < message.seq)) return messages
  const bySeq = new Map<number, MessageText>()
  for (const message of messages) if (!bySeq.has(message.seq)) bySeq.set(message.seq, message)
  return [...bySeq.values()].sort((a, b) => compareNumbers(a.seq, b.seq))
}

/** Orders found cuts canonically (first occurrence, longer first, then text); an overlapping one stays in the note. */
export const selectCuts = <C extends { readonly start: number; readonly end: number; readonly text: string }>(
  found: Array<C>,
  seq: number,
  warnings: Array<PlanWarning>
): Array<C> => {
  if (found.length > 1) found.sort((a, b) => a.start - b.start || b.end - a.end || compareStrings(a.text, b.text))
  const cuts: Array<C> = []
  let reach = 0
  for (const cut of found) {
    if (cut.start < reach) warnings.push(WarningLog.warning("directive-overlap", [seq], cut.text))
    else {
      cuts.push(cut)
      reach = cut.end
    }
  }
  return cuts
}

/** Cuts in canonical order; an overlapping one stays in the note. */
const cutsOf = (message: MessageText, wanted: ReadonlySet<string>, warnings: Array<PlanWarning>): Array<Cut> => {
  const found: Array<Cut> = []
  for (const text of wanted) {
    const start = findVerbatim(message.text, text)
    if (start === -1) warnings.push(WarningLog.warning("directive-not-found", [message.seq], text))
    else found.push({ messageId: message.id, seq: message.seq, text, start, end: start + text.length })
  }
  return selectCuts(found, message.seq, warnings)
}

const record = (dropped: Array<Span> | undefined, messageId: MessageId, start: number, end: number): void => {
  if (dropped !== undefined) dropped.push({ messageId, start, end })
}

const noCuts: ReadonlyArray<Cut> = []

/**
 * The text kept between cuts, tidied: the message's kept text is trimmed at both edges, and
 * at a cut with whitespace left on both sides the whitespace after the cut goes. Nothing else
 * changes. `cuts` are flat `[start, end, start, end …]` pairs, ascending and disjoint; the kept
 * ranges are written to `kept` (cleared first, and returned) as flat pairs too (flat, and in
 * reusable lists, because this runs once per message and allocation would dominate). The
 * dropped whitespace is recorded unless `dropped` is undefined.
 */
export const tidy = (
  message: MessageText,
  cuts: IntList.IntList,
  dropped: Array<Span> | undefined,
  kept: IntList.IntList
): IntList.IntList => {
  const { id: messageId, text } = message
  const { items } = kept
  IntList.clear(kept)
  for (let i = 0; i <= cuts.length; i += 2) {
    const start = i === 0 ? 0 : cuts.items[i - 1]!
    const end = i === cuts.length ? text.length : cuts.items[i]!
    let at = start
    if (kept.length === 0 || isWhitespace(text.charCodeAt(items[kept.length - 1]! - 1))) {
      while (at < end && isWhitespace(text.charCodeAt(at))) at++
    }
    if (at > start) record(dropped, messageId, start, at)
    if (at < end) {
      IntList.push(kept, at)
      IntList.push(kept, end)
    }
  }
  while (kept.length > 0) {
    const end = items[kept.length - 1]!
    const start = items[kept.length - 2]!
    kept.length -= 2
    let trimmed = end
    while (trimmed > start && isWhitespace(text.charCodeAt(trimmed - 1))) trimmed--
    if (trimmed < end) record(dropped, messageId, trimmed, end)
    if (trimmed > start) {
      IntList.push(kept, start)
      IntList.push(kept, trimmed)
      break
    }
  }
  return kept
}

/**
 * Assembles a note from its messages (any order; a repeated seq counts once) and the
 * directives agreed for each message. Each directive is removed at its first exact occurrence
 * inside its own message; one that does not match removes nothing and yields a
 * `directive-not-found` warning; an empty one removes nothing, silently. Messages are joined
 * with a blank line; a message with nothing left contributes nothing.
 */
export const assembleNote = (
  messages: ReadonlyArray<MessageText>,
  directives: ReadonlyArray<NoteDirective>
): AssembledNote => {
  const ordered = uniqueBySeq(messages)
  const wanted = new Map<string, Set<string>>()
  for (const directive of directives) {
    if (directive.text.length === 0) continue
    const set = wanted.get(directive.messageId) ?? new Set<string>()
    set.add(directive.text)
    wanted.set(directive.messageId, set)
  }
  const warnings: Array<PlanWarning> = []
  const segments: Array<Segment> = []
  const allCuts: Array<Cut> = []
  const allDropped: Array<Span> = []
  let body = ""
  for (const message of ordered) {
    const quoted = wanted.get(message.id)
    const cuts = quoted === undefined ? noCuts : cutsOf(message, quoted, warnings)
    wanted.delete(message.id)
    const ranges = IntList.make()
    for (const cut of cuts) {
      IntList.push(ranges, cut.start)
      IntList.push(ranges, cut.end)
    }
    const kept = tidy(message, ranges, allDropped, IntList.make())
    for (const cut of cuts) allCuts.push(cut)
    if (kept.length === 0) continue
    if (segments.length > 0) {
      segments.push({ _tag: "Separator", text: separator })
      body += separator
    }
    for (let i = 0; i < kept.length; i += 2) {
      const start = kept.items[i]!
      const end = kept.items[i + 1]!
      segments.push({ _tag: "Slice", messageId: message.id, start, end })
      body += message.text.slice(start, end)
    }
  }
  for (const texts of wanted.values()) for (const text of texts) warnings.push(WarningLog.warning("directive-not-found", [], text))
  return { body, segments, cuts: allCuts, dropped: allDropped, warnings }
}

/** One tile of a message: kept in the body, cut as a directive, or dropped whitespace. */
export interface Tile {
  readonly kind: "slice" | "cut" | "whitespace"
  readonly start: number
  readonly end: number
}

/**
 * The tiles of one message in an assembled note, sorted by offset. For a message of the note
 * they cover its text exactly, end to end, with no gap and no overlap.
 */
export const messageTiling = (note: AssembledNote, messageId: MessageId): Array<Tile> => {
  const tiles: Array<Tile> = []
  for (const segment of note.segments) {
    if (segment._tag === "Slice" && segment.messageId === messageId) {
      tiles.push({ kind: "slice", start: segment.start, end: segment.end })
    }
  }
  for (const cut of note.cuts) if (cut.messageId === messageId) tiles.push({ kind: "cut", start: cut.start, end: cut.end })
  for (const span of note.dropped) {
    if (span.messageId === messageId) tiles.push({ kind: "whitespace", start: span.start, end: span.end })
  }
  return tiles.sort((a, b) => a.start - b.start || a.end - b.end)
}
