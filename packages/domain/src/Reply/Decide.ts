/**
 * The reply decider, on a reply's own stream: a reply queued outside any session (a command's
 * answer, an import's summary, an answer's confirmation) is queued once, and every reply is
 * recorded as sent once; a failure after it was sent records nothing. Replies a session decides
 * are queued in the session's stream; their sends and failures land here all the same.
 */
import { Data, Either } from "effect"
import type { Event } from "../Events.js"
import type { ReplyFailed, ReplyQueued, ReplySent } from "../ReplyEvents.js"
import type { Decider } from "../Decider.js"
import { type Rejected, rejected } from "../Session/Commands.js"

export interface ReplyState {
  /** Queued in this stream (a reply a session queued is queued in the session's). */
  readonly queued: boolean
  readonly sent: boolean
}

type Fields<A> = Omit<A, "_tag">

export type ReplyCommand = Data.TaggedEnum<{
  Queue: { readonly reply: Fields<typeof ReplyQueued.Type> }
  RecordSent: { readonly sent: Fields<typeof ReplySent.Type> }
  RecordFailed: { readonly failed: Fields<typeof ReplyFailed.Type> }
}>
export const ReplyCommand = Data.taggedEnum<ReplyCommand>()

export const initialState: ReplyState = { queued: false, sent: false }

export const evolve = (state: ReplyState, event: Event): ReplyState =>
  event._tag === "ReplyQueued" ? { ...state, queued: true } : event._tag === "ReplySent" ? { ...state, sent: true } : state

const recordedBefore = Either.left(rejected("already-recorded"))

export const decide = (state: ReplyState, command: ReplyCommand): Either.Either<ReadonlyArray<Event>, Rejected> => {
  switch (command._tag) {
    case "Queue":
      return state.queued || state.sent ? recordedBefore : Either.right([{ _tag: "ReplyQueued", ...command.reply }])
    case "RecordSent":
      return state.sent ? recordedBefore : Either.right([{ _tag: "ReplySent", ...command.sent }])
    case "RecordFailed":
      return state.sent ? recordedBefore : Either.right([{ _tag: "ReplyFailed", ...command.failed }])
  }
}

/** The reply decider as a value, for the runner and the specifications. */
export const replyDecider: Decider<ReplyState, ReplyCommand, Event, Rejected> = { decide, evolve, initialState }
