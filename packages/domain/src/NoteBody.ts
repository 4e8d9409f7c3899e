/** A decided note's body: its messages in slot order, agreed directives cut, whitespace tidied, joined with provenance. */
import { separator, tidy } from "./Assembly.js"
import type { Attributions } from "./Attribution.js"
import type { DirectiveCut, Segment } from "./Decision.js"
import type { SlotIndex } from "./SlotIndex.js"
import { sortRange } from "./SortRange.js"
import { isWhitespace } from "./TextMatch.js"
import * as WarningLog from "./WarningLog.js"
import { compareStrings } from "./Warnings.js"

/** A note's body, the segments it is made of, and the directives actually cut from it. */
export interface NoteBody {
  readonly body: string
  readonly segments: Array<Segment>
  readonly directives: Array<DirectiveCut>
}

/** One shared separator segment: segments are read, never mutated. */
const separatorSegment: Segment = { _tag: "Separator", text: separator }

/**
 * Builds the assembler for one plan's attributions. The function it returns assembles a note
 * from its slots (ascending) and its agreed attributions (sorted by slot, reordered in place):
 * each message's cuts are taken in canonical order (first occurrence, longer first, then text)
 * and one overlapping an earlier cut stays in the note with a `directive-overlap` warning;
 * the kept text is tidied (`Assembly.tidy`) and messages are joined with a blank line. A
 * message with nothing left contributes nothing.
 */
export const makeAssembler = (index: SlotIndex, attributions: Attributions) => {
  const { at: attributedAt, slot: attributedSlot, text: attributedText } = attributions
  const byCutOrder = (a: number, b: number): number =>
    attributedAt[a]! - attributedAt[b]! ||
    (attributedAt[b]! + attributedText[b]!.length) - (attributedAt[a]! + attributedText[a]!.length) ||
    compareStrings(attributedText[a]!, attributedText[b]!)
  const cutRanges: Array<number> = []
  const kept: Array<number> = []
  return (slots: ReadonlyArray<number>, agreed: Array<number>, warnings: WarningLog.WarningLog): NoteBody => {
    const directives: Array<DirectiveCut> = []
    const segments: Array<Segment> = []
    let body = ""
    let next = 0
    for (const slot of slots) {
      const message = index.messages[slot]!
      const { id: messageId, text } = message
      let start = 0
      let end = text.length
      let ranges: Array<number> | undefined
      if (next < agreed.length && attributedSlot[agreed[next]!] === slot) {
        const first = next
        while (next < agreed.length && attributedSlot[agreed[next]!] === slot) next++
        sortRange(agreed, first, next, byCutOrder)
        // Cuts carry the message's own seq, as assembly reports it.
        cutRanges.length = 0
        let reach = 0
        for (let a = first; a < next; a++) {
          const i = agreed[a]!
          const cutText = attributedText[i]!
          const cutStart = attributedAt[i]!
          if (cutStart < reach) WarningLog.record(warnings, "directive-overlap", [message.seq], cutText)
          else {
            reach = cutStart + cutText.length
            cutRanges.push(cutStart, reach)
            directives.push({ messageId, seq: message.seq, text: cutText })
          }
        }
        ranges = tidy(message, cutRanges, undefined, kept)
        if (ranges.length === 0) continue
      } else {
        while (start < end && isWhitespace(text.charCodeAt(start))) start++
        while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--
        if (end === start) continue
      }
      if (segments.length > 0) {
        segments.push(separatorSegment)
        body += separator
      }
      if (ranges === undefined) {
        segments.push({ _tag: "Slice", messageId, start, end })
        body += text.slice(start, end)
      } else {
        for (let i = 0; i < ranges.length; i += 2) {
          segments.push({ _tag: "Slice", messageId, start: ranges[i]!, end: ranges[i + 1]! })
          body += text.slice(ranges[i]!, ranges[i + 1]!)
        }
      }
    }
    return { body, segments, directives }
  }
}
