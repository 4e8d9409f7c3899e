/**
 * An ask's decider: posed once, then one outcome, answered or failed. A question redelivered
 * by its provider is posed once (the runner's key and this state both hold); two instances
 * answering the same question record one answer.
 */
import { Data, Either } from "effect"
import type { Decider } from "../Decider.js"
import { type Rejected, rejected } from "../Session/Commands.js"
import type { AskAnswered, AskEvent, AskFailed, AskPosed } from "./Events.js"

export type AskState =
  | { readonly _tag: "None" }
  | { readonly _tag: "Posed"; readonly posed: typeof AskPosed.Type }
  | { readonly _tag: "Finished"; readonly posed: typeof AskPosed.Type; readonly outcome: typeof AskAnswered.Type | typeof AskFailed.Type }

export type AskCommand = Data.TaggedEnum<{
  Pose: { readonly posed: Omit<typeof AskPosed.Type, "_tag"> }
  Answer: { readonly answered: Omit<typeof AskAnswered.Type, "_tag"> }
  Fail: { readonly failed: Omit<typeof AskFailed.Type, "_tag"> }
}>
export const AskCommand = Data.taggedEnum<AskCommand>()

const none: AskState = { _tag: "None" }

export const askDecider: Decider<AskState, AskCommand, AskEvent, Rejected> = {
  initialState: none,
  evolve: (state, event) => {
    switch (event._tag) {
      case "AskPosed":
        return { _tag: "Posed", posed: event }
      case "AskAnswered":
      case "AskFailed":
        return state._tag === "Posed" ? { _tag: "Finished", posed: state.posed, outcome: event } : state
    }
  },
  decide: (state, command) => {
    switch (command._tag) {
      case "Pose":
        return state._tag === "None"
          ? Either.right([{ _tag: "AskPosed", ...command.posed }])
          : Either.left(rejected("already-recorded", "the question is asked already"))
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
