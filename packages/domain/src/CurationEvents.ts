/**
 * What a person changes by hand after the model filed their notes. A note's changes live in its
 * session's stream; a person's (rename, merge, unmerge) in the user's people stream. None deletes anything:
 * a discarded note's messages stay in the log and the accounting, and a restore brings it back.
 */
import { Schema } from "effect"
import { Owner } from "./Decision.js"
import { MessageId, NoteId, PersonId, SessionId, UserId } from "./Ids.js"

/**
 * A note filed under another person (`personId`, with `owner` naming them), or under the sender's
 * own notes (`null`, `Unattached`).
 */
export const NoteMoved = Schema.TaggedStruct("NoteMoved", {
  noteId: NoteId,
  sessionId: SessionId,
  personId: Schema.NullOr(PersonId),
  owner: Owner,
  movedAt: Schema.DateTimeUtc,
  /** The superseded note whose correction this re-applies, when a promoted plan carried it. */
  carriedFrom: Schema.optionalWith(NoteId, { exact: true })
})

/** A note set aside by its user: its messages read "discarded by the user". */
export const NoteDiscarded = Schema.TaggedStruct("NoteDiscarded", {
  noteId: NoteId,
  sessionId: SessionId,
  discardedAt: Schema.DateTimeUtc,
  /** The superseded note whose correction this re-applies, when a promoted plan carried it. */
  carriedFrom: Schema.optionalWith(NoteId, { exact: true })
})

/**
 * A note cut in two at a message boundary: `sources` (the messages from `atSeq` on, with the
 * directives cut from them) leave `noteId` for the new note `newNoteId`, which keeps its owner
 * and its plan.
 */
export const NoteSplit = Schema.TaggedStruct("NoteSplit", {
  noteId: NoteId,
  newNoteId: NoteId,
  sessionId: SessionId,
  sources: Schema.Array(Schema.Struct({ messageId: MessageId, seq: Schema.Finite })),
  splitAt: Schema.DateTimeUtc,
  /** The superseded note whose correction this re-applies, when a promoted plan carried it. */
  carriedFrom: Schema.optionalWith(NoteId, { exact: true })
})

/** A discarded note brought back as it was. */
export const NoteRestored = Schema.TaggedStruct("NoteRestored", {
  noteId: NoteId,
  sessionId: SessionId,
  restoredAt: Schema.DateTimeUtc
})

export const PersonRenamed = Schema.TaggedStruct("PersonRenamed", {
  personId: PersonId,
  user: UserId,
  name: Schema.String,
  renamedAt: Schema.DateTimeUtc
})

/**
 * `from` is folded into `into`: its notes are `into`'s, and its name resolves to `into` when a
 * later plan or answer names it.
 */
export const PeopleMerged = Schema.TaggedStruct("PeopleMerged", {
  user: UserId,
  from: PersonId,
  into: PersonId,
  mergedAt: Schema.DateTimeUtc
})

/**
 * A merge undone: `personId`, merged into another (directly, or through a chain of merges), is
 * their own person again, and the notes that were theirs when merged (filed under them, or under
 * a person still merged into them) leave `from`, the person they had been under, back to them.
 * Notes filed under `from` after the merge (a plan naming them, a move) stay with `from`.
 */
export const PeopleUnmerged = Schema.TaggedStruct("PeopleUnmerged", {
  user: UserId,
  personId: PersonId,
  from: PersonId,
  unmergedAt: Schema.DateTimeUtc
})

/** Every curation event. */
export type CurationEvent =
  | typeof NoteMoved.Type
  | typeof NoteSplit.Type
  | typeof NoteDiscarded.Type
  | typeof NoteRestored.Type
  | typeof PersonRenamed.Type
  | typeof PeopleMerged.Type
  | typeof PeopleUnmerged.Type
