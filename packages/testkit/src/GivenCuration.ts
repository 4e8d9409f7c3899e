/** Curation events in the shape the deciders record them, for projection and query tests. */
import type { Event } from "@verbatim/domain/Events"
import { MessageId, NoteId, PersonId, SessionId } from "@verbatim/domain/Ids"
import { at, user } from "./Given.js"

/** A note moved to `person` (`null`: the sender's own notes). */
export const noteMoved = (sessionId: string, noteId: string, person: { readonly personId: string; readonly name: string } | null): Event => ({
  _tag: "NoteMoved",
  noteId: NoteId.make(noteId),
  sessionId: SessionId.make(sessionId),
  personId: person === null ? null : PersonId.make(person.personId),
  owner: person === null ? { _tag: "Unattached" } : { _tag: "Person", contactId: person.personId, name: person.name },
  movedAt: at(1000)
})

/** Note `noteId` split: messages `seqs` of the session become note `newNoteId`. */
export const noteSplit = (sessionId: string, noteId: string, newNoteId: string, seqs: ReadonlyArray<number>): Event => ({
  _tag: "NoteSplit",
  noteId: NoteId.make(noteId),
  newNoteId: NoteId.make(newNoteId),
  sessionId: SessionId.make(sessionId),
  sources: seqs.map((seq) => ({ messageId: MessageId.make(`${sessionId}/${seq}`), seq })),
  splitAt: at(1010)
})

export const noteDiscarded = (sessionId: string, noteId: string): Event =>
  ({ _tag: "NoteDiscarded", noteId: NoteId.make(noteId), sessionId: SessionId.make(sessionId), discardedAt: at(1020) })

export const noteRestored = (sessionId: string, noteId: string): Event =>
  ({ _tag: "NoteRestored", noteId: NoteId.make(noteId), sessionId: SessionId.make(sessionId), restoredAt: at(1030) })

export const personRenamed = (personId: string, name: string): Event =>
  ({ _tag: "PersonRenamed", personId: PersonId.make(personId), user, name, renamedAt: at(1040) })

export const peopleMerged = (from: string, into: string): Event =>
  ({ _tag: "PeopleMerged", user, from: PersonId.make(from), into: PersonId.make(into), mergedAt: at(1050) })

/** `personId` out of the merge that left them under `from`. */
export const peopleUnmerged = (personId: string, from: string): Event =>
  ({ _tag: "PeopleUnmerged", user, personId: PersonId.make(personId), from: PersonId.make(from), unmergedAt: at(1060) })

/** The user's people stream, where renames, merges and unmerges are decided. */
export const peopleStream = `people-${user}`
