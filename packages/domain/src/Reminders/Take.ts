/**
 * Taking a plan's reminders: its stream (`plan-reminders-<plan>`) takes one `RemindersTaken`, so
 * the outcomes of a plan's reminders are recorded once, whichever instance took them and however
 * often a crash made one take them again (scheduling a reminder twice changes nothing either).
 */
import { Data, Either } from "effect"
import type { Decider } from "../Decider.js"
import { type Rejected, rejected } from "../Session/Commands.js"
import type { RemindersTaken } from "./Events.js"

export type TakeCommand = Data.TaggedEnum<{ Take: { readonly taken: Omit<typeof RemindersTaken.Type, "_tag"> } }>
export const TakeCommand = Data.taggedEnum<TakeCommand>()

type Taken = typeof RemindersTaken.Type

export const takeDecider: Decider<boolean, TakeCommand, Taken, Rejected> = {
  initialState: false,
  evolve: () => true,
  decide: (taken, command) =>
    taken
      ? Either.left(rejected("already-recorded", "the plan's reminders were taken"))
      : Either.right([{ _tag: "RemindersTaken", ...command.taken }])
}
