/**
 * The session decider on the generic runner (`Runner`): a session's commands are decided on its
 * stream's fold and appended at the version folded. A decider's `moved` (the session closed after
 * it was looked up) runs the attempt again from a fresh read, as a version conflict does.
 */
import type { Event } from "@verbatim/domain/Events"
import type { SessionId } from "@verbatim/domain/Ids"
import type { Command, Rejected } from "@verbatim/domain/Session/Commands"
import { sessionDecider } from "@verbatim/domain/Session/Decide"
import type * as State from "@verbatim/domain/Session/State"
import { sessionStream } from "@verbatim/domain/Streams"
import type { EventStore, IdempotencyKey, StoreError } from "@verbatim/projections/EventStore"
import type { FoldCache } from "@verbatim/projections/FoldCache"
import type { Effect } from "effect"
import * as Runner from "./Runner.js"

export type Folded = Runner.Folded<State.SessionState>

/** What running a session command did. */
export type Executed = Runner.Executed<State.SessionState, Event>

/** A session that closed after it was looked up: look again. */
const moved = (rejection: Rejected) => rejection.reason === "moved"

/** The session's state as of its newest committed event, and that event's version. */
export const load = (sessionId: SessionId): Effect.Effect<Folded, StoreError, EventStore | FoldCache> =>
  Runner.load(sessionDecider, sessionStream(sessionId))

/** The session's fold as remembered (unread, checked by the next append), or read when there is none. */
export const folded = (sessionId: SessionId): Effect.Effect<Folded, StoreError, EventStore | FoldCache> =>
  Runner.folded(sessionDecider, sessionStream(sessionId))

/** The fold this process remembers for a session, unread. */
export const knownFold = (cache: FoldCache["Type"], sessionId: SessionId): Folded | undefined =>
  Runner.remembered(cache, sessionStream(sessionId))

/** One attempt at a session command; `moved` and a version conflict fail with `Retry`. */
export const attempt = <E, R>(
  sessionId: SessionId,
  command: (state: State.SessionState) => Effect.Effect<Command, E, R>,
  keys: ReadonlyArray<IdempotencyKey> = []
) => Runner.attempt(sessionDecider, sessionStream(sessionId), command, { keys, again: moved })

/** Run a command on a session, retrying conflicts. */
export const execute = <E, R>(
  sessionId: SessionId,
  command: (state: State.SessionState) => Effect.Effect<Command, E, R>,
  keys: ReadonlyArray<IdempotencyKey> = []
): Effect.Effect<Executed, E | Rejected | StoreError, R | EventStore | FoldCache> =>
  Runner.run(sessionDecider, sessionStream(sessionId), command, { keys, again: moved })
