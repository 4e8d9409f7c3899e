/**
 * "What I hold about X": the subject-access copy of a person (the domain's `SubjectAccess/Copy.ts`)
 * gathered from the read model for the pages' downloads and the API alike. Every note is read, a
 * page at a time, however many there are; discarded notes too, since they are still held. Whom
 * it is read for is checked as the person page checks it: a user's own people only, the
 * operator's reads of another user's as `VERBATIM_OPERATOR_READS` says (refused under `none`,
 * under `audited` recorded, naming the person and every note, before any text is read).
 */
import type { Note } from "@verbatim/domain/ApiResponses"
import type { PersonId } from "@verbatim/domain/Ids"
import type { SourceAttachment, SubjectAccessCopy, SubjectNote } from "@verbatim/domain/SubjectAccess/Copy"
import { type NoteAuditView, Notebook, type Page } from "@verbatim/projections/Notebook"
import { DateTime, Effect, Option } from "effect"
import { require } from "./OperatorReads.js"
import * as SignIn from "./Web/SignIn.js"

/** Notes read at a time: a person may have thousands, and all of them are exported. */
export const notesPage = 100

type Source = NoteAuditView["sources"][number]

/** Every note of the person, oldest first: the live ones, or the discarded ones. */
const allNotes = (personId: PersonId, discarded: boolean) =>
  Effect.gen(function*() {
    const read = yield* Notebook
    const notes: Array<Note> = []
    let cursor: string | undefined = undefined
    do {
      const page: Option.Option<Page<Note>> = yield* read.notesByPerson(personId, { limit: notesPage, cursor, discarded })
      if (Option.isNone(page)) break
      notes.push(...page.value.items)
      cursor = page.value.nextCursor ?? undefined
    } while (cursor !== undefined)
    return notes
  })

/** The attachments a message's text came from: what each is (when its bytes are stored), and what read it. */
const attachmentsOf = (source: Source): ReadonlyArray<SourceAttachment> => {
  const derived = new Map(source.parts.flatMap((p) => (p.origin._tag === "Derived" ? [[p.origin.attachment, p.origin] as const] : [])))
  const rendered = source.parts.flatMap((p) => (p.origin._tag === "Rendering" && p.origin.attachment !== null ? [p.origin.attachment] : []))
  const indices = [...new Set([...source.media.map((m) => m.attachment), ...derived.keys(), ...rendered])].sort((a, b) => a - b)
  return indices.map((attachment) => {
    const media = source.media.find((m) => m.attachment === attachment)
    const reading = derived.get(attachment)
    return { attachment, kind: media?.kind ?? null, readAs: reading?.source ?? media?.source ?? null, model: reading?.model ?? null }
  })
}

/** A note's audit as the copy holds it. */
const noteOf = (audit: NoteAuditView): SubjectNote => ({
  id: audit.note.id,
  user: audit.note.user,
  sessionId: audit.note.sessionId,
  recordedAt: audit.note.recordedAt,
  discardedAt: audit.discardedAt,
  body: audit.note.body,
  sources: audit.sources.map((s) => ({
    messageId: s.messageId,
    // A note is made of messages of its own session.
    sessionId: audit.note.sessionId,
    seq: s.seq,
    provider: s.provider,
    providerMessageId: s.providerMessageId,
    sentAt: s.sentAt,
    receivedAt: s.receivedAt,
    forwardedFrom: s.forwardedFrom,
    text: s.text,
    parts: s.parts,
    attachments: attachmentsOf(s),
    edits: s.edits
  })),
  directives: audit.directives,
  filedUnder: audit.filedUnder,
  plan: audit.plan === null
    ? null
    : { planId: audit.plan.planId, promptVersion: audit.plan.promptVersion, promptHash: audit.plan.promptHash, model: audit.plan.model },
  mergedFrom: audit.mergedFrom,
  answer: audit.confirmation,
  reminders: audit.reminders,
  curation: audit.curation
})

/** The audits of `notes`, in their order (a note is never deleted, so each has one). */
const auditsOf = (notes: ReadonlyArray<Note>) =>
  Effect.flatMap(Notebook, (read) =>
    Effect.map(Effect.forEach(notes, (n) => read.noteAudit(n.id)), (audits) => audits.flatMap((a) => (Option.isSome(a) ? [noteOf(a.value)] : []))))

/**
 * The copy of person `personId` for `reader`: none when there is no such person or it is not
 * theirs to see; refused when the operator does not read its user's text.
 */
export const copyOf = Effect.fn("SubjectAccess.copyOf")(function*(reader: SignIn.Subject, personId: PersonId) {
  const read = yield* Notebook
  const person = Option.filter(yield* read.person(personId), (p) => SignIn.maySee(reader, p.user))
  if (Option.isNone(person)) return Option.none<SubjectAccessCopy>()
  const live = yield* allNotes(personId, false)
  const discarded = yield* allNotes(personId, true)
  yield* require(reader, { user: person.value.user, kind: "subject-access", ids: [personId, ...[...live, ...discarded].map((n) => n.id)] })
  const names = yield* read.personNames(personId)
  return Option.some<SubjectAccessCopy>({
    format: "verbatim.subject-access/1",
    exportedAt: yield* DateTime.now,
    person: { id: person.value.id, user: person.value.user, name: person.value.name, formerNames: names.formerNames, mergedIn: names.mergedIn },
    notes: yield* auditsOf(live),
    discarded: yield* auditsOf(discarded)
  })
})
