/**
 * The forget decider, on a user's `forget-<user>` stream: a forgetting is recorded once
 * (`Forgotten`, with the people it takes, each `PersonForgotten`); the same forgetting asked
 * again (a retried request, its id the same) is refused as unchanged. The sessions' messages are
 * erased by their own decider (`Session/Erase.ts`), and their words scrubbed after.
 */
import { type DateTime, Either } from "effect"
import type { Decider } from "../Decider.js"
import type { Event } from "../Events.js"
import type { PersonId, SessionId, UserId } from "../Ids.js"
import type { ForgetTarget } from "./Events.js"

export interface ForgetState {
  readonly forgotten: ReadonlySet<string>
}

export interface Forget {
  readonly forgetId: string
  readonly user: UserId
  readonly target: ForgetTarget
  readonly by: "user" | "operator"
  readonly messages: number
  readonly sessions: ReadonlyArray<SessionId>
  readonly people: ReadonlyArray<PersonId>
  readonly now: DateTime.Utc
}

export interface ForgetRefused {
  readonly _tag: "ForgetRefused"
  readonly reason: "unchanged"
}

const decide = (state: ForgetState, command: Forget): Either.Either<ReadonlyArray<Event>, ForgetRefused> => {
  if (state.forgotten.has(command.forgetId)) return Either.left({ _tag: "ForgetRefused", reason: "unchanged" })
  const { by, forgetId, messages, now, people, sessions, target, user } = command
  return Either.right([
    { _tag: "Forgotten", forgetId, user, target, by, messages, sessions, people, forgottenAt: now },
    ...people.map((personId): Event => ({ _tag: "PersonForgotten", personId, user, forgetId, forgottenAt: now }))
  ])
}

const evolve = (state: ForgetState, event: Event): ForgetState =>
  event._tag === "Forgotten" ? { forgotten: new Set([...state.forgotten, event.forgetId]) } : state

export const forgetDecider: Decider<ForgetState, Forget, Event, ForgetRefused> = {
  decide,
  evolve,
  initialState: { forgotten: new Set() }
}
