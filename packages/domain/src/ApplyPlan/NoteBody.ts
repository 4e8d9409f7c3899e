/** A decided note's body: its messages in slot order, agreed directives cut, whitespace tidied, joined with provenance. */
import { separator, tidy } from "./Assembly.js"
import type { Attributions } from "./Attribution.js"
import type { DirectiveCut, Segment } from "../Decision.js"
import * as IntList from "../IntList.js"
import type { SlotIndex } from "./SlotIndex.js"
import { sortRange } from "../SortRange.js"
import { isWhitespace } from "./TextMatch.js"
import * as WarningLog from "../WarningLog.js"
import { compareStrings } from "../Order.js"

/** A note's body, the segments it is made of, and the directives actually cut from it. */
export interface NoteBody {
  readonly body: string
  readonly segments: Array<Segment>
  readonly directives: Array<DirectiveCut>
}

/** One shared separator segment: segments are read, never mutated. */
const separatorSegment: Segment = { _tag: "Separator", text: separator }

/** Writes piece `count` of flat `[slot, start, end]` triples and returns the new count. */
const setPiece = (pieces: Array<number>, count: number, slot: number, start: number, end: number): number => {
  pieces[count * 3] = slot
  pieces[count * 3 + 1] = start
  pieces[count * 3 + 2] = end
  return count + 1
}

/**
 * Builds the assembler for one plan's attributions. The function it returns assembles a note
 * from its slots (ascending) and its agreed attributions (sorted by slot, reordered in place):
 * each message's cuts are taken in canonical order (first occurrence, longer first, then text)
 * and one overlapping an earlier cut stays in the note with a `directive-overlap` warning;
 * the kept text is tidied (`Assembly.tidy`) and messages are joined with a blank line. A
 * message with nothing left contributes nothing.
 *
 * A first pass lists the note's pieces and cuts in scratch arrays reused across notes, so the
 * segments and directives, which the note keeps, are allocated once at their final size.
 */
export const makeAssembler = (index: SlotIndex, attributions: Attributions) => {
  const { at: attributedAt, slot: attributedSlot, text: attributedText } = attributions
  const byCutOrder = (a: number, b: number): number =>
    attributedAt[a]! - attributedAt[b]! ||
    (attributedAt[b]! + attributedText[b]!.length) - (attributedAt[a]! + attributedText[a]!.length) ||
    compareStrings(attributedText[a]!, attributedText[b]!)
  const cutRanges = IntList.make()
  const kept = IntList.make()
  /** Flat `[slot, start, end]` triples; slot -1 stands for a separator. */
  const pieces: Array<number> = []
  /** The attributions actually cut, in body order. */
  const cuts: Array<number> = []
  return (slots: ReadonlyArray<number>, agreed: IntList.IntList, warnings: WarningLog.WarningLog): NoteBody => {
    let pieceCount = 0
    let cutCount = 0
    let next = 0
    for (const slot of slots) {
      const message = index.messages[slot]!
      const text = message.text
      let start = 0
      let end = text.length
      let ranges: IntList.IntList | undefined
      if (next < agreed.length && attributedSlot[agreed.items[next]!] === slot) {
        const first = next
        while (next < agreed.length && attributedSlot[agreed.items[next]!] === slot) next++
        sortRange(agreed.items, first, next, byCutOrder)
        // Cuts carry the message's own seq, as assembly reports it.
        IntList.clear(cutRanges)
        let reach = 0
        for (let a = first; a < next; a++) {
          const i = agreed.items[a]!
          const cutStart = attributedAt[i]!
          if (cutStart < reach) WarningLog.record(warnings, "directive-overlap", [message.seq], attributedText[i]!)
          else {
            reach = cutStart + attributedText[i]!.length
            IntList.push(cutRanges, cutStart)
            IntList.push(cutRanges, reach)
            cuts[cutCount++] = i
          }
        }
        ranges = tidy(message, cutRanges, undefined, kept)
        if (ranges.length === 0) continue
      } else {
        while (start < end && isWhitespace(text.charCodeAt(start))) start++
        while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--
        if (end === start) continue
      }
      if (pieceCount > 0) pieceCount = setPiece(pieces, pieceCount, -1, 0, 0)
      if (ranges === undefined) pieceCount = setPiece(pieces, pieceCount, slot, start, end)
      else {
        for (let i = 0; i < ranges.length; i += 2) {
          pieceCount = setPiece(pieces, pieceCount, slot, ranges.items[i]!, ranges.items[i + 1]!)
        }
      }
    }
    const segments = new Array<Segment>(pieceCount)
    let body = ""
    for (let p = 0; p < pieceCount; p++) {
      const slot = pieces[p * 3]!
      if (slot === -1) {
        segments[p] = separatorSegment
        body += separator
      } else {
        const { id: messageId, text } = index.messages[slot]!
        const start = pieces[p * 3 + 1]!
        const end = pieces[p * 3 + 2]!
        segments[p] = { _tag: "Slice", messageId, start, end }
        body += text.slice(start, end)
      }
    }
    const directives = new Array<DirectiveCut>(cutCount)
    for (let c = 0; c < cutCount; c++) {
      const { id: messageId, seq } = index.messages[attributedSlot[cuts[c]!]!]!
      directives[c] = { messageId, seq, text: attributedText[cuts[c]!]! }
    }
    return { body, segments, directives }
  }
}
