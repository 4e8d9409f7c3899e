/** The audit of a note: its body traced to message offsets, the directives cut, the plan, merges, confirmation and edits. */
import { SqlClient } from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type { NoteAudit, SourceMedia } from "@verbatim/domain/ApiResponses"
import { assembleNote } from "@verbatim/domain/ApplyPlan/Assembly"
import { Answer, type TokenUsage } from "@verbatim/domain/Events"
import { MessageId, NoteId, PlanId, Provider, QuestionId, ReminderId } from "@verbatim/domain/Ids"
import { ReminderStatus } from "@verbatim/domain/Reminders/Events"
import { type DateTime, Effect, Option, Schema } from "effect"
import { type Part, TranscriptSegment } from "@verbatim/domain/Media"
import { readableOf, statusOf } from "../Projections/MessageMedia.js"
import type { RowOf } from "../Projections/Rows.js"
import { IsoTime, Json, Num } from "./Columns.js"
import { type CurationStep, type FiledUnder, noteHistory } from "./Curation.js"
import { noteColumns, NoteRow, toNote } from "./Views.js"

/** One revision of a source message: the text it replaced and when. */
export interface SourceEdit {
  readonly previousText: string
  readonly text: string
  readonly editedAt: DateTime.Utc
}

/**
 * The API's audit, with receipt times, who a message was forwarded from, edit history, token
 * usage, and the note's curation (when it was discarded, if it is, and every change its user made).
 */
export interface NoteAuditView extends NoteAudit {
  readonly sources: ReadonlyArray<NoteAudit["sources"][number] & {
    readonly provider: Provider
    /** When the sender sent it, as the provider says (its receipt time when it does not). */
    readonly sentAt: DateTime.Utc
    readonly receivedAt: DateTime.Utc
    readonly forwardedFrom: string | null
    readonly edits: ReadonlyArray<SourceEdit>
  }>
  readonly plan: (NonNullable<NoteAudit["plan"]> & { readonly usage: TokenUsage }) | null
  readonly discardedAt: DateTime.Utc | null
  readonly curation: ReadonlyArray<CurationStep>
  readonly filedUnder: FiledUnder
}

const AuditedNoteRow = Schema.Struct({
  ...NoteRow.fields,
  plan_id: Schema.NullOr(PlanId),
  question_id: Schema.NullOr(QuestionId),
  merged_from: Num,
  discarded_at: Schema.NullOr(IsoTime)
})
const SourceRow = Schema.Struct({
  message_id: MessageId,
  seq: Num,
  provider: Provider,
  provider_message_id: Schema.String,
  text: Schema.String,
  sender_text: Schema.NullOr(Schema.String),
  forwarded_from: Schema.NullOr(Schema.String),
  sent_at: Schema.NullOr(IsoTime),
  received_at: IsoTime
})

/** Who wrote each stretch of a source's text: all the sender's, unless attachments added to it. */
const partsOf = (source: typeof SourceRow.Type, media: ReadonlyArray<RowOf<"message_media">>): ReadonlyArray<Part> =>
  media.length === 0
    ? source.text === "" ? [] : [{ start: 0, end: source.text.length, origin: { _tag: "Sender" } }]
    : readableOf(source.sender_text ?? "", media).parts
const decodeSegments = Schema.decodeUnknownSync(Schema.parseJson(Schema.Array(TranscriptSegment)))

/** A stored attachment, for playing or showing it beside its text; none when its bytes are not stored. */
const sourceMedia = (row: RowOf<"message_media">): ReadonlyArray<SourceMedia> => {
  if (row["sha256"] == null) return []
  const status = statusOf(row)
  return [{
    attachment: Number(row["ordinal"]),
    kind: row.kind,
    source: status.derived?.source ?? null,
    segments: row["segments"] == null || status.derived === null ? [] : decodeSegments(String(row["segments"])),
    pages: status.derived?.pages ?? []
  }]
}
const ReminderRow = Schema.Struct({
  reminder_id: ReminderId,
  message_id: MessageId,
  quote: Schema.String,
  quote_start: Num,
  quote_end: Num,
  due_local: Schema.String,
  zone: Schema.String,
  status: ReminderStatus
})
const EditRow = Schema.Struct({ message_id: MessageId, previous_text: Schema.String, text: Schema.String, edited_at: IsoTime })
const ErasedRow = Schema.Struct({ message_id: MessageId, seq: Num, erased_at: IsoTime })
const DirectiveRow = Schema.Struct({ message_id: MessageId, seq: Num, text: Schema.String })
const PlanRow = Schema.Struct({
  plan_id: PlanId,
  prompt_version: Schema.String,
  prompt_hash: Schema.String,
  model: Schema.String,
  input_tokens: Num,
  output_tokens: Num,
  cache_read_tokens: Num,
  cache_write_tokens: Num
})
const AnswerRow = Schema.Struct({
  question_id: QuestionId,
  answer: Schema.NullOr(Json(Answer)),
  answered_at: Schema.NullOr(IsoTime)
})

/** The audit of one note, or none when no such note exists. */
export const noteAudit = Effect.fn("Notebook.noteAudit")(function*(noteId: NoteId) {
  const sql = yield* SqlClient
  /** The note's rows of `Result`, as `execute` selects them for its id. */
  const ofNote = <A, I>(Result: Schema.Schema<A, I>, execute: (id: string) => Statement.Statement<unknown>) =>
    SqlSchema.findAll({ Request: NoteId, Result, execute })(noteId)
  const found = yield* SqlSchema.findOne({
    Request: NoteId,
    Result: AuditedNoteRow,
    execute: (id) =>
      sql`SELECT ${sql.literal(noteColumns)}, n.plan_id, n.question_id, n.merged_from, n.discarded_at
        FROM notes n JOIN events e ON e.position = n.position WHERE n.note_id = ${id}`
  })(noteId)
  if (Option.isNone(found)) return Option.none<NoteAuditView>()
  const row = found.value
  const sources = yield* ofNote(SourceRow, (id) =>
    sql`SELECT m.message_id, m.seq, m.provider, m.provider_message_id, m.text, m.sender_text, m.forwarded_from, m.sent_at,
      m.received_at FROM note_sources s JOIN messages m ON m.message_id = s.message_id WHERE s.note_id = ${id} ORDER BY m.seq`)
  const media = yield* sql<RowOf<"message_media">>`SELECT a.* FROM message_media a JOIN note_sources s ON s.message_id = a.message_id
    WHERE s.note_id = ${noteId} ORDER BY a.message_id, a.ordinal`
  const edits = yield* ofNote(EditRow, (id) =>
    sql`SELECT e.message_id, e.previous_text, e.text, e.edited_at FROM message_edits e
      JOIN note_sources s ON s.message_id = e.message_id WHERE s.note_id = ${id} ORDER BY e.message_id, e.position`)
  const directives = yield* ofNote(DirectiveRow, (id) =>
    sql`SELECT message_id, seq, text FROM note_directives WHERE note_id = ${id} ORDER BY ordinal`)
  const reminders = yield* ofNote(ReminderRow, (id) =>
    sql`SELECT r.reminder_id, r.message_id, r.quote, r.quote_start, r.quote_end, r.due_local, r.zone, r.status
      FROM reminders r JOIN note_sources s ON s.message_id = r.message_id WHERE s.note_id = ${id} ORDER BY r.due_at, r.reminder_id`)
  const erased = yield* ofNote(ErasedRow, (id) =>
    sql`SELECT message_id, seq, erased_at FROM note_erasures WHERE note_id = ${id} ORDER BY seq`)
  const assembled = assembleNote(
    sources.map((s) => ({ id: s.message_id, seq: s.seq, text: s.text })),
    directives.map((d) => ({ messageId: d.message_id, text: d.text }))
  )
  const plan = row.plan_id === null ? undefined : Option.getOrUndefined(yield* SqlSchema.findOne({
    Request: PlanId,
    Result: PlanRow,
    execute: (id) =>
      sql`SELECT plan_id, prompt_version, prompt_hash, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens
        FROM plans WHERE plan_id = ${id}`
  })(row.plan_id))
  const answered = row.question_id === null ? undefined : Option.getOrUndefined(yield* SqlSchema.findOne({
    Request: QuestionId,
    Result: AnswerRow,
    execute: (id) => sql`SELECT question_id, answer, answered_at FROM questions WHERE question_id = ${id}`
  })(row.question_id))
  const note = toNote(row, sources.map((s) => ({ messageId: s.message_id, seq: s.seq })))
  const history = yield* noteHistory(row.session_id, row.note_id)
  return Option.some<NoteAuditView>({
    note,
    segments: assembled.segments,
    sources: sources.map((s) => ({
      messageId: s.message_id,
      seq: s.seq,
      providerMessageId: s.provider_message_id,
      text: s.text,
      parts: partsOf(s, media.filter((a) => a["message_id"] === s.message_id)),
      media: media.filter((a) => a["message_id"] === s.message_id).flatMap(sourceMedia),
      provider: s.provider,
      sentAt: s.sent_at ?? s.received_at,
      receivedAt: s.received_at,
      forwardedFrom: s.forwarded_from,
      edits: edits.filter((e) => e.message_id === s.message_id).map((e) => ({
        previousText: e.previous_text,
        text: e.text,
        editedAt: e.edited_at
      }))
    })),
    directives: directives.map((d) => {
      const cut = assembled.cuts.find((c) => c.messageId === d.message_id && c.text === d.text)
      return { messageId: d.message_id, seq: d.seq, text: d.text, start: cut?.start ?? null, end: cut?.end ?? null }
    }),
    plan: plan === undefined ? null : {
      planId: plan.plan_id,
      promptVersion: plan.prompt_version,
      promptHash: plan.prompt_hash,
      model: plan.model,
      usage: {
        inputTokens: plan.input_tokens,
        outputTokens: plan.output_tokens,
        cacheReadTokens: plan.cache_read_tokens,
        cacheWriteTokens: plan.cache_write_tokens
      }
    },
    mergedFrom: row.merged_from,
    confirmation: answered?.answer == null || answered.answered_at === null ? null : {
      questionId: answered.question_id,
      answer: answered.answer,
      answeredAt: answered.answered_at
    },
    reminders: reminders.map((r) => ({
      reminderId: r.reminder_id,
      messageId: r.message_id,
      quote: r.quote,
      start: r.quote_start,
      end: r.quote_end,
      dueLocal: r.due_local,
      zone: r.zone,
      status: r.status
    })),
    erased: erased.map((e) => ({ messageId: e.message_id, seq: e.seq, erasedAt: e.erased_at })),
    discardedAt: row.discarded_at,
    curation: history.steps,
    filedUnder: history.filedUnder
  })
})
