/**
 * The subject-access copy of a person, "what I hold about X": the person and every note filed
 * under them (those of people merged into them included), each traced to the messages it was
 * made from, the instructions cut from them, how it was filed and what its user changed. The
 * JSON download and `GET /api/people/:id/export` are this schema encoded; its field names are
 * kept stable (`format` names the version).
 */
import { Schema } from "effect"
import { AttachmentKind } from "../Attachment.js"
import { Owner } from "../Decision.js"
import { NoteAudit } from "../ApiResponses.js"
import { MessageId, NoteId, PersonId, Provider, SessionId, UserId } from "../Ids.js"
import { DerivedSource, Part } from "../Media.js"
import { slug } from "../Slug.js"

/** A person merged into the exported one: their notes are among the exported person's. */
export const MergedPerson = Schema.Struct({ id: PersonId, name: Schema.String, formerNames: Schema.Array(Schema.String) })
export type MergedPerson = typeof MergedPerson.Type

export const SubjectPerson = Schema.Struct({
  id: PersonId,
  /** The user whose person this is. */
  user: UserId,
  name: Schema.String,
  /** Names they had before a rename, oldest first. */
  formerNames: Schema.Array(Schema.String),
  mergedIn: Schema.Array(MergedPerson)
})
export type SubjectPerson = typeof SubjectPerson.Type

/** An attachment a message's text was read from, and by what. */
export const SourceAttachment = Schema.Struct({
  attachment: Schema.Number,
  /** Null when its bytes are not stored. */
  kind: Schema.NullOr(AttachmentKind),
  /** `speech` (transcribed), `image` or `document` (read); null when no text was read from it. */
  readAs: Schema.NullOr(DerivedSource),
  model: Schema.NullOr(Schema.String)
})
export type SourceAttachment = typeof SourceAttachment.Type

/** A message a note was made from, as stored. */
export const SubjectSource = Schema.Struct({
  messageId: MessageId,
  sessionId: SessionId,
  seq: Schema.Number,
  provider: Provider,
  providerMessageId: Schema.String,
  sentAt: Schema.DateTimeUtc,
  receivedAt: Schema.DateTimeUtc,
  forwardedFrom: Schema.NullOr(Schema.String),
  /** The text as stored now (after any edit), attachments' readings included. */
  text: Schema.String,
  /** Who wrote each stretch of `text`: the sender, a transcriber or reader (with its model), or the rendering. */
  parts: Schema.Array(Part),
  attachments: Schema.Array(SourceAttachment),
  /** Each edit, oldest first: the text it replaced. */
  edits: Schema.Array(Schema.Struct({ previousText: Schema.String, text: Schema.String, editedAt: Schema.DateTimeUtc }))
})
export type SubjectSource = typeof SubjectSource.Type

const Carried = { carriedFrom: Schema.NullOr(NoteId) }

/** A change the note's user made to it. */
export const CurationStep = Schema.Union(
  Schema.TaggedStruct("Moved", { to: Owner, at: Schema.DateTimeUtc, ...Carried }),
  Schema.TaggedStruct("SplitOff", { into: NoteId, seqs: Schema.Array(Schema.Number), at: Schema.DateTimeUtc, ...Carried }),
  Schema.TaggedStruct("SplitFrom", { from: NoteId, at: Schema.DateTimeUtc, ...Carried }),
  Schema.TaggedStruct("Discarded", { at: Schema.DateTimeUtc, ...Carried }),
  Schema.TaggedStruct("Restored", { at: Schema.DateTimeUtc })
)
export type CurationStep = typeof CurationStep.Type

export const SubjectNote = Schema.Struct({
  id: NoteId,
  /** The user whose note it is. */
  user: UserId,
  sessionId: SessionId,
  recordedAt: Schema.DateTimeUtc,
  /** When its user set it aside; null for a live note. */
  discardedAt: Schema.NullOr(Schema.DateTimeUtc),
  body: Schema.String,
  sources: Schema.Array(SubjectSource),
  /** Instructions to the bot cut from the sources, placed in their messages as the audit places them. */
  directives: NoteAudit.fields.directives,
  /** Whom it was filed under as it was recorded, before any move or merge (a person since merged in, say); null: the user's own notes. */
  filedUnder: Schema.NullOr(Schema.Struct({ personId: Schema.NullOr(PersonId), name: Schema.String })),
  /** The plan that filed it; null when an answer did. */
  plan: NoteAudit.fields.plan,
  /** How many of the plan's notes were merged into this one (1 when none were). */
  mergedFrom: Schema.Number,
  /** The user's answer to a question that filed or confirmed it. */
  answer: NoteAudit.fields.confirmation,
  /** The reminders words of its sources set, as the audit gives them. */
  reminders: NoteAudit.fields.reminders,
  /** What its user changed, oldest first. */
  curation: Schema.Array(CurationStep)
})
export type SubjectNote = typeof SubjectNote.Type

/** The whole copy. Notes in the order they were recorded; discarded ones apart, since they are still held. */
export const SubjectAccessCopy = Schema.Struct({
  format: Schema.Literal("verbatim.subject-access/1"),
  exportedAt: Schema.DateTimeUtc,
  person: SubjectPerson,
  notes: Schema.Array(SubjectNote),
  discarded: Schema.Array(SubjectNote)
})
export type SubjectAccessCopy = typeof SubjectAccessCopy.Type

/**
 * A download's `Content-Disposition`: the person's name as the Markdown export names its pages
 * (`Slug`), an ASCII stand-in for a name in another script, and the name itself in `filename*`.
 */
export const attachmentOf = (name: string, extension: "md" | "json"): string => {
  const stem = slug(name, "person")
  const ascii = /^[a-z0-9-]+$/.test(stem) ? stem : "person"
  return `attachment; filename="${ascii}.${extension}"; filename*=UTF-8''${encodeURIComponent(`${stem}.${extension}`)}`
}
