/**
 * A note's curation on its session's stream: moved to another person (or the sender's own notes),
 * split at a message boundary, discarded, restored. Only the note's user (or the operator, `asker` null) changes it, and a
 * change that changes nothing is refused, so a form sent twice records once.
 */
import { Either } from "effect"
import { NoteId } from "../Ids.js"
import type { Event } from "../Events.js"
import { type Command, type Decision, rejected } from "./Commands.js"
import { nameProblem, resolver } from "./People.js"
import type { NoteState, SessionState } from "./State.js"

const curated = (state: SessionState, noteId: NoteState["noteId"], asker: NoteState["user"] | null): Either.Either<NoteState, ReturnType<typeof rejected>> => {
  const note = state.notes.get(noteId)
  if (note === undefined || state.sessionId === null) return Either.left(rejected("not-found"))
  if (asker !== null && asker !== note.user) return Either.left(rejected("not-yours"))
  return Either.right(note)
}

export const decideMoveNote = (state: SessionState, command: Command & { readonly _tag: "MoveNote" }): Decision =>
  Either.flatMap(curated(state, command.noteId, command.asker), (note): Decision => {
    if (note.discarded) return Either.left(rejected("discarded", "a discarded note is restored before it is moved"))
    const to = command.to._tag === "Person" ? { ...command.to, name: command.to.name.trim() } : command.to
    const listed = to._tag === "Person" && command.known.some((p) => p.personId === to.contactId)
    const problem = to._tag === "Person" && !listed ? nameProblem(to.name) : null
    if (problem !== null) return Either.left(rejected("invalid", to._tag === "Person" && to.contactId !== null && to.name === "" ? "no such person of yours" : problem))
    const people = resolver(command.known, note.user, command.ids)
    const personId = people.resolve(to)
    if (personId === note.personId) return Either.left(rejected("unchanged", "the note is already there"))
    const name = command.known.find((p) => p.personId === personId)?.name ?? (to._tag === "Person" ? to.name : "")
    const moved: Event = {
      _tag: "NoteMoved",
      noteId: note.noteId,
      sessionId: state.sessionId!,
      personId,
      owner: personId === null ? { _tag: "Unattached" } : { _tag: "Person", contactId: personId, name },
      movedAt: command.now
    }
    return Either.right([...people.added, moved])
  })

export const decideDiscardNote = (state: SessionState, command: Command & { readonly _tag: "DiscardNote" }): Decision =>
  Either.flatMap(curated(state, command.noteId, command.asker), (note): Decision => {
    if (note.discarded === command.discard) {
      return Either.left(rejected("unchanged", command.discard ? "the note is already discarded" : "the note is not discarded"))
    }
    const sessionId = state.sessionId!
    return Either.right([
      command.discard
        ? { _tag: "NoteDiscarded", noteId: note.noteId, sessionId, discardedAt: command.now }
        : { _tag: "NoteRestored", noteId: note.noteId, sessionId, restoredAt: command.now }
    ])
  })

export const decideSplitNote = (state: SessionState, command: Command & { readonly _tag: "SplitNote" }): Decision =>
  Either.flatMap(curated(state, command.noteId, command.asker), (note): Decision => {
    if (note.discarded) return Either.left(rejected("discarded", "a discarded note is restored before it is split"))
    const later = note.sources.filter((s) => s.seq >= command.atSeq)
    if (!note.sources.some((s) => s.seq === command.atSeq)) return Either.left(rejected("invalid", `message ${command.atSeq} is not in the note`))
    if (later.length === note.sources.length) return Either.left(rejected("unchanged", "a note is split before a message other than its first"))
    return Either.right([{
      _tag: "NoteSplit",
      noteId: note.noteId,
      newNoteId: NoteId.make(command.ids.next("note")),
      sessionId: state.sessionId!,
      sources: later,
      splitAt: command.now
    }])
  })
