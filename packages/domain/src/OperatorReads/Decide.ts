/** The decider of a user's `operator-reads-<user>` stream: it takes every read, and keeps no state. */
import { Data, Either } from "effect"
import type { Decider } from "../Decider.js"
import type { Event } from "../Events.js"
import type { OperatorRead } from "./Events.js"

export type OperatorReadCommand = Data.TaggedEnum<{
  Record: { readonly read: Omit<typeof OperatorRead.Type, "_tag"> }
}>
export const OperatorReadCommand = Data.taggedEnum<OperatorReadCommand>()

/** A user's reads stream takes every read; its state is nothing. */
export const operatorReadDecider: Decider<null, OperatorReadCommand, Event, never> = {
  initialState: null,
  evolve: (state) => state,
  decide: (_state, command) => Either.right([{ _tag: "OperatorRead", ...command.read }])
}
