/** What the log keeps of the operator's reads of other users' data (under VERBATIM_OPERATOR_READS=audited). */
import { Schema } from "effect"
import { UserId } from "../Ids.js"

/** What a read showed of a user's data (a list, one item, a file), for the user's own page. */
export const ReadKind = Schema.Literal(
  "people",
  "person",
  "note",
  "own-notes",
  "questions",
  "session",
  "search",
  "asks",
  "ask",
  "reminders",
  "media",
  "replay",
  "subject-access"
)
export type ReadKind = typeof ReadKind.Type

/**
 * The operator read a user's data: what (`kind`, the request's method and path, the ids of what
 * was shown), whose, and when; never the text that was read. One per read and user, on the
 * user's `operator-reads-<user>` stream, appended before the answer is sent, so no text is shown
 * without its record.
 */
export const OperatorRead = Schema.TaggedStruct("OperatorRead", {
  user: UserId,
  kind: ReadKind,
  route: Schema.String,
  ids: Schema.Array(Schema.String),
  readAt: Schema.DateTimeUtc
})
