/**
 * What applying a plan decides, as schemas: the same shapes are recorded in events, so a
 * decision read back from the log is the decision that was made.
 */
import { Schema } from "effect"
import { MessageId } from "./Ids.js"

/** Who a note belongs to: a person (a known contact or a new name) or nobody in particular. */
export const Owner = Schema.Union(
  Schema.TaggedStruct("Person", { contactId: Schema.NullOr(Schema.String), name: Schema.String }),
  Schema.TaggedStruct("Unattached", {})
)
export type Owner = typeof Owner.Type

/** A directive the note's claimants all quoted, removed from one message. */
export const DirectiveCut = Schema.Struct({
  messageId: MessageId,
  seq: Schema.Finite,
  text: Schema.String
})
export type DirectiveCut = typeof DirectiveCut.Type

/** A piece of a note body: a verbatim slice of one message, or a separator between messages. */
export const Segment = Schema.Union(
  Schema.TaggedStruct("Slice", {
    messageId: MessageId,
    /** UTF-16 offsets into the stored message text; never inside a surrogate pair. */
    start: Schema.Finite,
    end: Schema.Finite
  }),
  Schema.TaggedStruct("Separator", { text: Schema.String })
)
export type Segment = typeof Segment.Type

export const QuestionReason = Schema.Literal("unclear", "unplanned", "contested", "failed", "corrected")
export type QuestionReason = typeof QuestionReason.Type

/** An answer offered to the sender for a question. */
export const Candidate = Schema.Union(
  Schema.TaggedStruct("Person", { contactId: Schema.NullOr(Schema.String), name: Schema.String }),
  Schema.TaggedStruct("Unattached", {})
)
export type Candidate = typeof Candidate.Type

export const WarningCode = Schema.Literal(
  "unknown-seq",
  "directive-not-found",
  "directive-overlap",
  "directive-disputed",
  "bot-message-kept-as-note",
  "contested",
  "unplanned",
  "model-text-repaired"
)
export type WarningCode = typeof WarningCode.Type

export const PlanWarning = Schema.Struct({
  code: WarningCode,
  /** Seqs the warning concerns (may be empty). */
  seqs: Schema.Array(Schema.Finite),
  /** Plain words for the sender's reply. */
  message: Schema.String
})
export type PlanWarning = typeof PlanWarning.Type
