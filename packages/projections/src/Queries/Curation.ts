/**
 * A note's curation as its user made it, read from its session's stream (the read model keeps
 * only the outcome): moves, splits, discards and restores, oldest first.
 */
import type { Owner } from "@verbatim/domain/Decision"
import type { NoteId, PersonId, SessionId } from "@verbatim/domain/Ids"
import { sessionStream } from "@verbatim/domain/Streams"
import { type DateTime, Effect } from "effect"
import { EventStore } from "../EventStore.js"

/** Set on a change a promoted plan re-applied: the superseded note the user had made it on. */
type Carried = { readonly carriedFrom: NoteId | null }

/** One change a user made to a note. */
export type CurationStep =
  | { readonly _tag: "Moved"; readonly to: Owner; readonly at: DateTime.Utc } & Carried
  /** Messages `seqs` left this note for `into`. */
  | { readonly _tag: "SplitOff"; readonly into: NoteId; readonly seqs: ReadonlyArray<number>; readonly at: DateTime.Utc } & Carried
  /** This note was cut from `from`. */
  | { readonly _tag: "SplitFrom"; readonly from: NoteId; readonly at: DateTime.Utc } & Carried
  | { readonly _tag: "Discarded"; readonly at: DateTime.Utc } & Carried
  | { readonly _tag: "Restored"; readonly at: DateTime.Utc }

/** Whom a note was filed under as it was recorded, before any move or merge; null: the user's own notes. */
export type FiledUnder = { readonly personId: PersonId | null; readonly name: string } | null

/**
 * The curation of note `noteId` of session `sessionId`, and whom it was filed under as recorded
 * (a note split off another: whom that one was).
 */
export const noteHistory = (sessionId: SessionId, noteId: NoteId) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const recorded = yield* store.readStream(sessionStream(sessionId))
    const steps: Array<CurationStep> = []
    const filed = new Map<NoteId, FiledUnder>()
    for (const { event } of recorded) {
      const carriedFrom = "carriedFrom" in event ? event.carriedFrom ?? null : null
      if (event._tag === "NoteRecorded") filed.set(event.noteId, event.owner._tag === "Person" ? { personId: event.personId, name: event.owner.name } : null)
      if (event._tag === "NoteSplit") filed.set(event.newNoteId, filed.get(event.noteId) ?? null)
      switch (event._tag) {
        case "NoteMoved":
          if (event.noteId === noteId) steps.push({ _tag: "Moved", to: event.owner, at: event.movedAt, carriedFrom })
          break
        case "NoteSplit":
          if (event.noteId === noteId) steps.push({ _tag: "SplitOff", into: event.newNoteId, seqs: event.sources.map((s) => s.seq), at: event.splitAt, carriedFrom })
          if (event.newNoteId === noteId) steps.push({ _tag: "SplitFrom", from: event.noteId, at: event.splitAt, carriedFrom })
          break
        case "NoteDiscarded":
          if (event.noteId === noteId) steps.push({ _tag: "Discarded", at: event.discardedAt, carriedFrom })
          break
        case "NoteRestored":
          if (event.noteId === noteId) steps.push({ _tag: "Restored", at: event.restoredAt })
          break
      }
    }
    return { steps, filedUnder: filed.get(noteId) ?? null }
  })
