/**
 * The web access decider: a sign-in link's stream takes one sign-in, so a link works once across
 * every instance sharing the log; a subject's sign-out stream takes every sign-out. Both run on
 * the generic runner like any other stream.
 */
import { Data, Either } from "effect"
import type { Decider } from "./Decider.js"
import type { Event } from "./Events.js"
import { type Rejected, rejected } from "./Session/Commands.js"
import type { WebSignedOut, WebSignIn } from "./WebEvents.js"

export interface WebAccessState {
  /** The link of this stream was used. */
  readonly used: boolean
}

export type WebAccessCommand = Data.TaggedEnum<{
  SignIn: { readonly signIn: Omit<typeof WebSignIn.Type, "_tag"> }
  SignOut: { readonly signOut: Omit<typeof WebSignedOut.Type, "_tag"> }
}>
export const WebAccessCommand = Data.taggedEnum<WebAccessCommand>()

export const initialState: WebAccessState = { used: false }

export const evolve = (state: WebAccessState, event: Event): WebAccessState => (event._tag === "WebSignIn" ? { used: true } : state)

export const decide = (state: WebAccessState, command: WebAccessCommand): Either.Either<ReadonlyArray<Event>, Rejected> => {
  switch (command._tag) {
    case "SignIn":
      return state.used ? Either.left(rejected("already-recorded", "the link was used")) : Either.right([{ _tag: "WebSignIn", ...command.signIn }])
    case "SignOut":
      return Either.right([{ _tag: "WebSignedOut", ...command.signOut }])
  }
}

/** The web access decider as a value, for the runner and the specifications. */
export const webAccessDecider: Decider<WebAccessState, WebAccessCommand, Event, Rejected> = { decide, evolve, initialState }
