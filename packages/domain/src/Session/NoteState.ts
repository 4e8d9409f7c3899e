/**
 * The notes part of a session's state: each live note, whose it is, its messages, whether its user
 * set it aside, and what of that the user chose by hand (the corrections a promoted plan carries).
 */
import { absurd } from "effect"
import type { Owner } from "../Decision.js"
import type { Event } from "../Events.js"
import type { MessageId, NoteId, PersonId, PlanId, UserId } from "../Ids.js"

/** A boundary a user cut by splitting a note: the message `seq` begins a note, `before` ended the other. */
export interface Cut {
  readonly seq: number
  readonly before: MessageId
}

/** A live note of the session. */
export interface NoteState {
  readonly noteId: NoteId
  readonly user: UserId
  readonly planId: PlanId | null
  readonly personId: PersonId | null
  readonly owner: Owner
  /** Its messages, by seq. */
  readonly sources: ReadonlyArray<{ readonly messageId: MessageId; readonly seq: number }>
  readonly discarded: boolean
  /** Whether its owner was chosen by hand (moved, or split from a note that was). */
  readonly moved: boolean
  /** The split that began it, when it was split off another note. */
  readonly cut: Cut | null
}

export type Notes = ReadonlyMap<NoteId, NoteState>

const withNote = (notes: Notes, noteId: NoteId, changes: Partial<NoteState>): Notes => {
  const note = notes.get(noteId)
  return note === undefined ? notes : new Map(notes).set(noteId, { ...note, ...changes })
}

/** The events that change a session's notes: one recorded, or curated by its user. */
export type NoteEvent = Extract<Event, { readonly _tag: "NoteRecorded" | "NoteMoved" | "NoteSplit" | "NoteDiscarded" | "NoteRestored" }>

/** A note recorded, or curated by its user. */
export const evolveNotes = (notes: Notes, event: NoteEvent): Notes => {
  switch (event._tag) {
    case "NoteRecorded": {
      const sources = [...event.sources].sort((a, b) => a.seq - b.seq)
      return new Map(notes).set(event.noteId, {
        noteId: event.noteId,
        user: event.user,
        planId: event.planId,
        personId: event.personId,
        owner: event.owner,
        sources,
        discarded: false,
        moved: false,
        cut: null
      })
    }
    case "NoteMoved":
      return withNote(notes, event.noteId, { personId: event.personId, owner: event.owner, moved: true })
    case "NoteSplit": {
      const note = notes.get(event.noteId)
      if (note === undefined) return notes
      const moved = new Set(event.sources.map((s) => s.messageId))
      const kept = note.sources.filter((s) => !moved.has(s.messageId))
      const later = note.sources.filter((s) => moved.has(s.messageId))
      const cut = kept.length === 0 || later.length === 0 ? null : { seq: later[0]!.seq, before: kept[kept.length - 1]!.messageId }
      return new Map(withNote(notes, event.noteId, { sources: kept }))
        .set(event.newNoteId, { ...note, noteId: event.newNoteId, sources: later, cut })
    }
    case "NoteDiscarded":
    case "NoteRestored":
      return withNote(notes, event.noteId, { discarded: event._tag === "NoteDiscarded" })
    default:
      return absurd(event)
  }
}

/** The notes left when plans are superseded: theirs retire (an answer's stay). */
export const retireNotes = (notes: Notes, plans: ReadonlyArray<PlanId>): Notes =>
  new Map([...notes].filter(([, n]) => n.planId === null || !plans.includes(n.planId)))
