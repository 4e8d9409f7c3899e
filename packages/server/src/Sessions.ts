/**
 * The one way a session command runs: fold the stream (remembered between commands, so only
 * what is new is read), decide, append at the version folded. A version conflict (another writer got there first)
 * or a decider's `Moved` (the session closed after it was looked up) runs the whole attempt again
 * from a fresh read, under one schedule, for every command.
 */
import type { Event } from "@verbatim/domain/Events"
import type { SessionId } from "@verbatim/domain/Ids"
import type { Command, Rejected } from "@verbatim/domain/Session/Commands"
import { decide } from "@verbatim/domain/Session/Decide"
import * as State from "@verbatim/domain/Session/State"
import { AppendConflict, EventStore, type IdempotencyKey, type StoreError } from "@verbatim/projections/EventStore"
import { Effect, Either, Schedule } from "effect"
import { sessionStream } from "@verbatim/domain/Streams"

/** Retried from a fresh read: another writer appended first, or the session closed after it was looked up. */
export class Retry extends Error {
  readonly _tag = "Retry"
}

/** Version conflicts are retried soon, with jitter so two racing writers part, and not forever. */
const conflicts = Schedule.exponential("2 millis").pipe(Schedule.jittered, Schedule.intersect(Schedule.recurs(30)))

/** Run an attempt again while it fails with `Retry`; past the schedule it is a defect (something is stuck). */
export const retrying = <A, E, R>(attempt: Effect.Effect<A, E | Retry, R>): Effect.Effect<A, Exclude<E, Retry>, R> =>
  attempt.pipe(
    Effect.retry({ schedule: conflicts, while: (e) => e instanceof Retry }),
    Effect.catchIf((e): e is Retry => e instanceof Retry, (e) => Effect.die(e))
  ) as Effect.Effect<A, Exclude<E, Retry>, R>

export interface Folded {
  readonly version: number
  readonly state: State.SessionState
}

/** Bounded maps per store, newest last: what a runner remembers between commands. */
const perStore = <V>(size: number) => {
  const caches = new WeakMap<object, Map<string, V>>()
  const of = (store: object) => {
    let cache = caches.get(store)
    if (cache === undefined) caches.set(store, cache = new Map())
    return cache
  }
  return {
    get: (store: object, key: string) => of(store).get(key),
    set: (store: object, key: string, value: V) => {
      const cache = of(store)
      cache.delete(key)
      cache.set(key, value)
      if (cache.size > size) cache.delete(cache.keys().next().value!)
    },
    delete: (store: object, key: string) => void of(store).delete(key)
  }
}

/** A session's fold as of a version; a stream's next read starts after it. */
const folds = perStore<Folded>(512)

/** A bounded memory of keys to values per store, for lookups a runner's caller repeats (a conversation's session). */
export const memo = perStore

type Store = EventStore["Type"]

/** The fold this process remembers for a session in `store`, unread: a guess that may be behind the log (an append checks it). */
export const knownFold = (store: Store, sessionId: SessionId): Folded | undefined => folds.get(store, sessionStream(sessionId))

/** Remember the fold an append of this process left, or forget it (`null`) so the next command reads. */
export const keepFold = (store: Store, sessionId: SessionId, fold: Folded | null): void =>
  fold === null ? folds.delete(store, sessionStream(sessionId)) : folds.set(store, sessionStream(sessionId), fold)

/** The session's state as of its newest committed event, and that event's version. */
export const load = (sessionId: SessionId): Effect.Effect<Folded, StoreError, EventStore> =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const cached = knownFold(store, sessionId) ?? { version: 0, state: State.empty }
    const recorded = yield* store.readStream(sessionStream(sessionId), cached.version)
    const last = recorded[recorded.length - 1]
    const folded = last === undefined ? cached : { version: last.version, state: State.fold(recorded.map((e) => e.event), cached.state) }
    keepFold(store, sessionId, folded)
    return folded
  })

/** The session's fold as remembered (unread, checked by the next append), or read when there is none. */
export const folded = (sessionId: SessionId): Effect.Effect<Folded, StoreError, EventStore> =>
  Effect.flatMap(EventStore, (store) => {
    const known = knownFold(store, sessionId)
    return known === undefined ? load(sessionId) : Effect.succeed(known)
  })

/** What running a command did: the events appended (none when the decision had nothing to add), or a redelivery. */
export type Executed =
  | { readonly _tag: "Appended"; readonly events: ReadonlyArray<Event>; readonly state: State.SessionState }
  | { readonly _tag: "AlreadyRecorded" }

/**
 * One attempt: build the command from the state, decide, append at the version the state is of.
 * The state is the remembered fold when there is one, unread: the append's expected version
 * checks it (a conflict drops it, and the next attempt reads), and a refusal decided on it is
 * decided again on a fresh read before it stands. Refusals fail with the decider's `Rejected`;
 * `moved` and a version conflict fail with `Retry`.
 */
export const attempt = <E, R>(
  sessionId: SessionId,
  command: (state: State.SessionState) => Effect.Effect<Command, E, R>,
  idempotencyKeys: ReadonlyArray<IdempotencyKey> = []
): Effect.Effect<Executed, E | Rejected | StoreError | Retry, R | EventStore> =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const stream = sessionStream(sessionId)
    const remembered = knownFold(store, sessionId)
    let { state, version } = remembered ?? (yield* load(sessionId))
    let decided = decide(state, yield* command(state))
    if (Either.isLeft(decided) && remembered !== undefined) {
      ;({ state, version } = yield* load(sessionId))
      decided = decide(state, yield* command(state))
    }
    if (Either.isLeft(decided)) return yield* decided.left.reason === "moved" ? Effect.fail(new Retry()) : Effect.fail(decided.left)
    const events = decided.right
    if (events.length === 0 && idempotencyKeys.length === 0) return { _tag: "Appended", events, state } as const
    const appended = yield* store.append(stream, version, events, { idempotencyKeys }).pipe(
      Effect.catchIf((e): e is AppendConflict => e instanceof AppendConflict, () => {
        keepFold(store, sessionId, null)
        return Effect.fail(new Retry())
      })
    )
    if (appended._tag === "AlreadyRecorded") return { _tag: "AlreadyRecorded" } as const
    const next = State.fold(events, state)
    keepFold(store, sessionId, { version: appended.version, state: next })
    return { _tag: "Appended", events, state: next } as const
  })

/** Run a command on a session, retrying conflicts. */
export const execute = <E, R>(
  sessionId: SessionId,
  command: (state: State.SessionState) => Effect.Effect<Command, E, R>,
  idempotencyKeys: ReadonlyArray<IdempotencyKey> = []
): Effect.Effect<Executed, E | Rejected | StoreError, R | EventStore> =>
  retrying(attempt(sessionId, command, idempotencyKeys)).pipe(Effect.withSpan("Sessions.execute"))
