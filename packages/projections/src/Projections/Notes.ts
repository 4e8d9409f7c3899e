/**
 * The notes projection; owns `notes`, `note_sources`, `note_directives` and `confirmations`: each
 * note with its sources, directives and confirmations, and its body derived from current message text.
 */
import type { SqlError } from "@effect/sql/SqlError"
import { assembleNote } from "@verbatim/domain/ApplyPlan/Assembly"
import type { MessageId } from "@verbatim/domain/Ids"
import { absurd, Effect } from "effect"
import type { StoredOf } from "../EventCodec.js"
import { StoreError } from "../EventStore.js"
import { isRetired } from "./Plans.js"
import type { MediaEvent } from "./MessageMedia.js"
import { type Step, stepwise } from "./Projection.js"
import type { Batch } from "./Rows.js"
import type { TableName } from "./Tables.js"

const isUniqueViolation = (error: SqlError): boolean => {
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined
  return cause?.code === "23505" || String(cause?.message ?? "").includes("UNIQUE constraint failed")
}

/** A unique source index refused a row: the message already belongs to another note or confirmation. */
export const refuseDuplicate = (table: TableName) => (error: SqlError): Effect.Effect<never, StoreError | SqlError> =>
  isUniqueViolation(error)
    ? Effect.fail(new StoreError({ reason: "duplicate-source", message: `a row of ${table} is already recorded`, cause: error }))
    : Effect.fail(error)

const duplicate = (message: string) => new StoreError({ reason: "duplicate-source", message })

/**
 * Recompute a note's body with the domain's assembly from its sources' current text and its
 * recorded directives; a directive that no longer matches is kept in the body and flagged.
 */
export const deriveBody = (batch: Batch, noteId: string) => {
  const note = batch.get("notes", noteId)
  if (!note) return
  const messages = batch.where("note_sources", "note_id", noteId).flatMap((source) => {
    const m = batch.get("messages", source.message_id)
    return m ? [{ id: m.message_id as MessageId, seq: m.seq, text: m.text }] : []
  })
  const directives = batch.where("note_directives", "note_id", noteId)
    .sort((a, b) => Number(a.ordinal) - Number(b.ordinal))
  const assembled = assembleNote(
    messages,
    directives.map((d) => ({ messageId: d.message_id as MessageId, text: d.text }))
  )
  const cut = new Set(assembled.cuts.map((c) => `${c.messageId}\u0000${c.text}`))
  let unmatched = 0
  for (const directive of directives) {
    const matched = cut.has(`${directive.message_id}\u0000${directive.text}`) ? 1 : 0
    unmatched += 1 - matched
    if (matched !== Number(directive.matched)) batch.update("note_directives", directive, { matched })
  }
  if (note.body !== assembled.body || Number(note.unmatched_directives) !== unmatched) {
    batch.update("notes", note, { body: assembled.body, unmatched_directives: unmatched })
  }
}

/**
 * The person a note filed under `personId` belongs to now: a person merged into another is that
 * other (a plan decided before a merge may record its note after it).
 */
export const livePerson = (batch: Batch, personId: string | null): string | null =>
  personId === null ? null : batch.get("people", personId)?.merged_into ?? personId

/** Record a note once; a second NoteRecorded for the same note changes nothing. */
const recordNote = (batch: Batch, event: StoredOf<"NoteRecorded">, position: number): StoreError | void => {
  if (batch.has("notes", event.noteId)) return
  const owner = event.owner
  const personId = livePerson(batch, event.personId)
  batch.put("notes", {
    note_id: event.noteId,
    session_id: event.sessionId,
    user_id: event.user,
    plan_id: event.planId,
    question_id: event.questionId,
    owner_kind: owner._tag,
    owner_contact_id: owner._tag === "Person" ? owner.contactId : null,
    owner_name: owner._tag === "Person" ? owner.name : null,
    person_id: personId,
    filed_person_id: event.personId,
    merged_from: event.mergedFrom,
    body: "",
    unmatched_directives: 0,
    position,
    discarded_at: null
  })
  for (const s of event.sources) {
    if (batch.has("note_sources", s.messageId)) return duplicate(`a source of ${event.noteId} is already in a note`)
    batch.put("note_sources", { message_id: s.messageId, note_id: event.noteId, seq: s.seq })
  }
  if (event.questionId !== null) {
    for (const s of event.sources) {
      if (batch.has("confirmations", s.messageId)) return duplicate(`a source of ${event.noteId} was already confirmed`)
      batch.put("confirmations", { message_id: s.messageId, question_id: event.questionId, note_id: event.noteId })
    }
  }
  event.directives.forEach((d, ordinal) =>
    batch.put("note_directives", { note_id: event.noteId, ordinal, message_id: d.messageId, seq: d.seq, text: d.text, matched: 0 })
  )
  deriveBody(batch, event.noteId)
}

/**
 * A plan superseded by a promoted replay stops counting: its notes leave the read model (the
 * events stay in the log, and the audit of the new plan).
 */
const retire = (batch: Batch, planId: string) => {
  for (const note of batch.where("notes", "plan_id", planId)) {
    for (const directive of batch.where("note_directives", "note_id", note.note_id)) batch.delete("note_directives", directive)
    for (const source of batch.where("note_sources", "note_id", note.note_id)) batch.delete("note_sources", source)
    batch.delete("notes", note)
  }
}

/**
 * Notes as filed, with bodies kept current as their messages are edited. An edit's note is loaded
 * whole (see Load), and re-derived from the text the messages projection (applied first) keeps.
 */
export const Notes = stepwise<"NoteRecorded" | "MessageEdited" | MediaEvent["_tag"] | "PlanProduced">(
  "notes",
  ["NoteRecorded", "MessageEdited", "MediaFetched", "MediaFailed", "MediaTranscribed", "PlanProduced"],
  (event, position): Step => {
    switch (event._tag) {
      case "NoteRecorded":
        return {
          wants: (keys) => {
            if (event.planId !== null) keys.add("plans", "plan_id", event.planId)
            if (event.personId !== null) keys.add("people", "person_id", event.personId)
            keys.add("notes", "note_id", event.noteId)
            keys.add("note_directives", "note_id", event.noteId)
            for (const source of event.sources) {
              keys.add("messages", "message_id", source.messageId)
              keys.add("note_sources", "message_id", source.messageId)
              if (event.questionId !== null) keys.add("confirmations", "message_id", source.messageId)
            }
          },
          evolve: (batch) => isRetired(batch, event.planId) ? undefined : recordNote(batch, event, position)
        }
      case "MessageEdited":
      case "MediaFetched":
      case "MediaFailed":
      case "MediaTranscribed":
        return {
          wants: (keys) => {
            keys.add("messages", "message_id", event.messageId)
            keys.add("note_sources", "message_id", event.messageId)
          },
          evolve: (batch) => {
            // Deriving again from the current text is the same whether or not this edit is new.
            const source = batch.get("note_sources", event.messageId)
            if (source && batch.has("messages", event.messageId)) deriveBody(batch, source.note_id)
          }
        }
      case "PlanProduced":
        return {
          wants: (keys) => {
            for (const superseded of event.supersedes) keys.add("notes", "plan_id", superseded)
          },
          evolve: (batch) => {
            for (const superseded of event.supersedes) retire(batch, superseded)
          }
        }
      default:
        return absurd(event)
    }
  }
)
