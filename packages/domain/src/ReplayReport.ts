/**
 * A replay report as it is kept for the web pages: the summary and, per session, what changed
 * under the candidate prompt. Decoding ignores fields it does not name, so a report written by a
 * newer `verbatim replay` still reads.
 */
import { Schema } from "effect"
import { SessionId } from "./Ids.js"

const Tokens = Schema.Struct({ input: Schema.Number, output: Schema.Number })
const Cut = Schema.Struct({ seq: Schema.Number, kind: Schema.Literal("message", "directive"), text: Schema.String })
const QuestionChange = Schema.Struct({ seqs: Schema.Array(Schema.Number), reason: Schema.String })
const Groups = Schema.Array(Schema.Array(Schema.Number))
const Label = Schema.NullOr(Schema.Literal("done", "cancelled"))
const Judgement = Schema.NullOr(Schema.Literal("regression", "improvement"))
const ReminderChange = Schema.Struct({ seq: Schema.Number, quote: Schema.String, local: Schema.NullOr(Schema.String), label: Label, effect: Judgement })
const ReminderMove = Schema.Struct({
  seq: Schema.Number,
  quote: Schema.String,
  from: Schema.NullOr(Schema.String),
  to: Schema.NullOr(Schema.String),
  label: Label,
  effect: Judgement
})
const reminderCounts = {
  unchanged: Schema.Number,
  regressions: Schema.Number,
  improvements: Schema.Number
}

export const ReplaySummary = Schema.Struct({
  promptVersion: Schema.String,
  sessions: Schema.Number,
  changed: Schema.Number,
  unchanged: Schema.Number,
  failed: Schema.Number,
  skipped: Schema.Number,
  moved: Schema.Number,
  regrouped: Schema.Number,
  cutsChanged: Schema.Number,
  questionsAdded: Schema.Number,
  questionsResolved: Schema.Number,
  /** Reminders added, lost, moved and unchanged, and the changes the users' own handling judges; absent in older reports. */
  reminders: Schema.optional(Schema.Struct({ added: Schema.Number, lost: Schema.Number, moved: Schema.Number, ...reminderCounts })),
  tokens: Schema.Struct({ live: Tokens, shadow: Tokens }),
  /** The candidate's cost in dollars (null: no known price) at the list or the batch rate; absent in older reports. */
  cost: Schema.optional(Schema.Struct({ shadow: Schema.NullOr(Schema.Number), rate: Schema.Literal("list", "batch") })),
  /** Milliseconds in model calls (null: unknown); absent in older reports. */
  latency: Schema.optional(Schema.Struct({ live: Schema.NullOr(Schema.Number), shadow: Schema.NullOr(Schema.Number) }))
})

export const SessionReplayView = Schema.Union(
  Schema.Struct({
    sessionId: SessionId,
    status: Schema.Literal("changed", "unchanged"),
    model: Schema.String,
    tokens: Schema.Struct({ live: Tokens, shadow: Tokens }),
    diff: Schema.Struct({
      moved: Schema.Array(Schema.Struct({ seq: Schema.Number, from: Schema.String, to: Schema.String })),
      regrouped: Schema.Struct({ before: Groups, after: Groups }),
      cuts: Schema.Struct({ removed: Schema.Array(Cut), added: Schema.Array(Cut) }),
      questions: Schema.Struct({ added: Schema.Array(QuestionChange), resolved: Schema.Array(QuestionChange) })
    }),
    /** The reminders the candidate adds, loses or moves in time (local `YYYY-MM-DDTHH:MM`; null: asked); absent in older reports. */
    reminders: Schema.optional(Schema.Struct({
      added: Schema.Array(ReminderChange),
      lost: Schema.Array(ReminderChange),
      moved: Schema.Array(ReminderMove),
      ...reminderCounts
    }))
  }),
  Schema.Struct({ sessionId: SessionId, status: Schema.Literal("failed", "skipped"), error: Schema.String })
)
export type SessionReplayView = typeof SessionReplayView.Type

/** The verdict on the change: agreement with the users' own outcome, live against candidate, and why when it is not a PASS. */
export const ReplayGateView = Schema.Struct({
  verdict: Schema.Literal("PASS", "FAIL", "INCONCLUSIVE"),
  agreement: Schema.Struct({ live: Schema.Number, shadow: Schema.Number }),
  reasons: Schema.Array(Schema.String)
})

export const ReplayReportBody = Schema.Struct({ gate: ReplayGateView, summary: ReplaySummary, sessions: Schema.Array(SessionReplayView) })
export type ReplayReportBody = typeof ReplayReportBody.Type
