/**
 * An ask's decider: posed once, then one outcome, answered or failed; then the asker may confirm
 * quotes of the answer, each once, as labels. A question redelivered
 * by its provider is posed once (the runner's key and this state both hold); two instances
 * answering the same question record one answer.
 */
import { Data, Either } from "effect"
import type { Decider } from "../Decider.js"
import { type Rejected, rejected } from "../Session/Commands.js"
import type { AskAnswered, AskEvent, AskFailed, AskPosed, AskQuoteConfirmed } from "./Events.js"

export type AskState =
  | { readonly _tag: "None" }
  | { readonly _tag: "Posed"; readonly posed: typeof AskPosed.Type }
  | {
    readonly _tag: "Finished"
    readonly posed: typeof AskPosed.Type
    readonly outcome: typeof AskAnswered.Type | typeof AskFailed.Type
    /** The quotes the asker confirmed, as `message:start-end`. */
    readonly confirmed: ReadonlySet<string>
  }

export type AskCommand = Data.TaggedEnum<{
  Pose: { readonly posed: Omit<typeof AskPosed.Type, "_tag"> }
  Answer: { readonly answered: Omit<typeof AskAnswered.Type, "_tag"> }
  Fail: { readonly failed: Omit<typeof AskFailed.Type, "_tag"> }
  Confirm: { readonly confirmed: Omit<typeof AskQuoteConfirmed.Type, "_tag"> }
}>
export const AskCommand = Data.taggedEnum<AskCommand>()

const none: AskState = { _tag: "None" }

/** A quote as a key: its message and characters. */
export const quoteKey = (q: { readonly messageId: string; readonly start: number; readonly end: number }): string => `${q.messageId}:${q.start}-${q.end}`

export const askDecider: Decider<AskState, AskCommand, AskEvent, Rejected> = {
  initialState: none,
  evolve: (state, event) => {
    switch (event._tag) {
      case "AskPosed":
        return { _tag: "Posed", posed: event }
      case "AskAnswered":
      case "AskFailed":
        return state._tag === "Posed" ? { _tag: "Finished", posed: state.posed, outcome: event, confirmed: new Set() } : state
      case "AskQuoteConfirmed":
        return state._tag === "Finished" ? { ...state, confirmed: new Set([...state.confirmed, quoteKey(event)]) } : state
    }
  },
  decide: (state, command) => {
    switch (command._tag) {
      case "Pose":
        return state._tag === "None"
          ? Either.right([{ _tag: "AskPosed", ...command.posed }])
          : Either.left(rejected("already-recorded", "the question is asked already"))
      case "Confirm": {
        const quote = command.confirmed
        if (state._tag !== "Finished" || state.outcome._tag !== "AskAnswered") return Either.left(rejected("not-found", "no such answer"))
        if (quote.user !== state.posed.user) return Either.left(rejected("not-yours", "the question is someone else's"))
        if (!state.outcome.kept.some((k) => quoteKey(k) === quoteKey(quote))) return Either.left(rejected("no-such-option", "the answer has no such quote"))
        if (state.confirmed.has(quoteKey(quote))) return Either.left(rejected("unchanged", "the quote is confirmed already"))
        return Either.right([{ _tag: "AskQuoteConfirmed", ...quote }])
      }
      case "Answer":
      case "Fail":
        if (state._tag === "None") return Either.left(rejected("not-found", "no such question"))
        if (state._tag === "Finished") return Either.left(rejected("already-answered", "the question has its answer"))
        return Either.right([
          command._tag === "Answer" ? { _tag: "AskAnswered", ...command.answered } : { _tag: "AskFailed", ...command.failed }
        ])
    }
  }
}
