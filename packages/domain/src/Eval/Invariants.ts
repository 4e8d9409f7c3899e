/**
 * What every replayed plan must keep, checked without a judge: each message in exactly one place
 * (a note, a question, the bot), each note body made of slices of its own messages that with the
 * cuts and trimmed whitespace tile every message exactly, each cut present in its message, and no
 * new person made where the user already had them (the duplicate-entity alarm).
 */
import type { Decisions } from "../ApplyPlan/ApplyPlan.js"
import { assembleNote, messageTiling } from "../ApplyPlan/Assembly.js"
import { findVerbatim } from "../ApplyPlan/TextMatch.js"
import type { PersonId } from "../Ids.js"
import type { MessageText } from "../Message.js"
import { type Directory, resolveOwner } from "./Directory.js"
import type { SessionLabels } from "./Labels.js"

export type Violation =
  /** A message in no place or in more than one. */
  | { readonly _tag: "Unaccounted"; readonly seq: number; readonly places: number }
  /** A note whose body is not the slices of its messages as assembly derives them. */
  | { readonly _tag: "BodyNotSlices"; readonly seqs: ReadonlyArray<number> }
  /** A message of a note whose slices, cuts and trimmed whitespace do not cover it exactly. */
  | { readonly _tag: "TilingBroken"; readonly seq: number }
  /** A recorded cut whose text its message does not hold. */
  | { readonly _tag: "CutAbsent"; readonly seq: number; readonly text: string }
  /** A new person made for messages the user filed under a person they already had. */
  | { readonly _tag: "DuplicatePerson"; readonly name: string; readonly existing: PersonId; readonly seqs: ReadonlyArray<number> }

export interface InvariantReport {
  readonly violations: ReadonlyArray<Violation>
  /** Names of people the plan makes that the user does not have (by id or any of their names). */
  readonly personCreations: ReadonlyArray<string>
}

const tiles = (text: string, tiling: ReadonlyArray<{ readonly start: number; readonly end: number }>): boolean => {
  let at = 0
  for (const tile of tiling) {
    if (tile.start !== at || tile.end <= tile.start) return false
    at = tile.end
  }
  return at === text.length
}

const sliced = (messages: ReadonlyMap<string, MessageText>, note: Decisions["notes"][number]): string =>
  note.segments.map((s) => (s._tag === "Separator" ? s.text : messages.get(s.messageId)?.text.slice(s.start, s.end) ?? "\u0000")).join("")

/** Checks the decisions of a plan's chunks over the session's messages; `labels` enable the duplicate alarm. */
export const checkInvariants = (
  messages: ReadonlyArray<MessageText>,
  chunks: ReadonlyArray<Decisions>,
  people: Directory,
  labels?: SessionLabels
): InvariantReport => {
  const violations: Array<Violation> = []
  const byId = new Map<string, MessageText>(messages.map((m) => [m.id, m]))
  const places = new Map<number, number>(messages.map((m) => [m.seq, 0]))
  const place = (seq: number) => places.set(seq, (places.get(seq) ?? 0) + 1)
  const created = new Map<string, Array<number>>()
  for (const decisions of chunks) {
    for (const note of decisions.notes) {
      note.seqs.forEach(place)
      const own = messages.filter((m) => note.seqs.includes(m.seq))
      const assembled = assembleNote(own, note.directives)
      if (assembled.body !== note.body || sliced(byId, note) !== note.body) violations.push({ _tag: "BodyNotSlices", seqs: note.seqs })
      for (const m of own) {
        // The note's own segments, with the cuts and whitespace assembly accounts for, must cover the message.
        if (!tiles(m.text, messageTiling({ ...assembled, segments: note.segments }, m.id))) violations.push({ _tag: "TilingBroken", seq: m.seq })
      }
      const owner = resolveOwner(people, note.owner)
      if (owner._tag === "Person" && owner.personId === null) created.set(owner.name, [...(created.get(owner.name) ?? []), ...note.seqs])
    }
    for (const question of decisions.questions) question.seqs.forEach(place)
    for (const i of decisions.instructions) {
      const text = messages.find((m) => m.seq === i.seq)?.text
      if (i.kind === "message") place(i.seq)
      const present = text !== undefined && (i.kind === "message" ? text === i.text : findVerbatim(text, i.text) !== -1)
      if (!present) violations.push({ _tag: "CutAbsent", seq: i.seq, text: i.text })
    }
  }
  for (const [seq, count] of places) if (count !== 1) violations.push({ _tag: "Unaccounted", seq, places: count })
  for (const [name, seqs] of created) {
    const filed = labels?.messages.find((m) => seqs.includes(m.seq) && m.target?._tag === "Person" && m.target.personId !== null)
    if (filed?.target?._tag === "Person" && filed.target.personId !== null) {
      violations.push({ _tag: "DuplicatePerson", name, existing: filed.target.personId, seqs: [...seqs].sort((a, b) => a - b) })
    }
  }
  return { violations, personCreations: [...created.keys()] }
}
