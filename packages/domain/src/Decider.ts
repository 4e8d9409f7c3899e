/**
 * A decider, in the shape of Emmett's and Chassaing's: how a state decides a command (the events
 * to append, or a refusal with its reason), how an event changes the state, and where a stream's
 * state starts. Pure: the server's runner reads, folds, decides and appends for every stream
 * alike, and the tests state history as events (`DeciderSpec`).
 */
import type { Either } from "effect"

export interface Decider<State, Command, Event, Rejection> {
  readonly decide: (state: State, command: Command) => Either.Either<ReadonlyArray<Event>, Rejection>
  readonly evolve: (state: State, event: Event) => State
  readonly initialState: State
}

/** The state after `events`, from `state` (the decider's initial state unless given). */
export const fold = <State, Event>(
  decider: Pick<Decider<State, unknown, Event, unknown>, "evolve" | "initialState">,
  events: Iterable<Event>,
  state: State = decider.initialState
): State => {
  let folded = state
  for (const event of events) folded = decider.evolve(folded, event)
  return folded
}
