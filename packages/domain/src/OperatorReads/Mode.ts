/**
 * `VERBATIM_OPERATOR_READS`: what the operator (the API token's holder, by bearer or signed in to
 * the pages) reads of other users' data. `none` (the default): their counts and shapes, never
 * their text; `audited`: the text, each read recorded where its user sees it; `all`: everything,
 * unrecorded, for an install of one person. The operator's own notes (`web:operator`) are always
 * theirs to read.
 */
import { Schema } from "effect"

export const OperatorReadsMode = Schema.Literal("none", "audited", "all")
export type OperatorReadsMode = typeof OperatorReadsMode.Type

/** Why the operator is not shown another user's text: the API's 403, the pages' refusal, a listed item's `withheld`. */
export const notReadMessage = "VERBATIM_OPERATOR_READS=none: the operator does not read other users' text; set audited or all"

/** Why the operator is not shown the event log under `none` and `audited`: a page of it holds every user's text at once. */
export const eventLogMessage = (mode: Exclude<OperatorReadsMode, "all">) =>
  `VERBATIM_OPERATOR_READS=${mode}: the event log holds every user's text, and a page of it cannot be recorded as a read of each user's; set all to read it`

/** The field of an item listed to the operator without its text: why (`notReadMessage`). Absent when the text is shown. */
export const withheldField = {
  withheld: Schema.optionalWith(Schema.String, { exact: true }).annotations({
    description: "Present when the item's text (message text, note body, names, quotes) is left out for the operator: why, naming VERBATIM_OPERATOR_READS."
  })
}
