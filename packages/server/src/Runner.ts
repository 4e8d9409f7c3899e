/**
 * The one way any stream is decided on: fold the stream (remembered between commands in the
 * `FoldCache`, so only what is new is read), decide, append at the version folded. A version
 * conflict (another writer got there first), or a refusal the caller marks as "look again" (a
 * session that closed after it was looked up), runs the whole attempt again from a fresh read,
 * under one schedule, for every decider. `runBatch` appends many streams' decisions in one
 * transaction, for capture.
 */
import { type Decider, fold } from "@verbatim/domain/Decider"
import type { Event } from "@verbatim/domain/Events"
import { AppendConflict, type BatchAppend, EventStore, type IdempotencyKey, type StoreError } from "@verbatim/projections/EventStore"
import { FoldCache } from "@verbatim/projections/FoldCache"
import { Data, Effect, Either, Exit, Schedule } from "effect"

/** Run again from a fresh read: another writer appended first, or the decider said to look again. */
export class Retry extends Data.TaggedError("Retry") {}

/** Version conflicts are retried soon, with jitter so two racing writers part, and not forever. */
const conflicts = Schedule.exponential("2 millis").pipe(Schedule.jittered, Schedule.intersect(Schedule.recurs(30)))

/** Run an attempt again while it fails with `Retry`; past the schedule it is a defect (something is stuck). */
export const retrying = <A, E, R>(attempt: Effect.Effect<A, E | Retry, R>): Effect.Effect<A, Exclude<E, Retry>, R> =>
  attempt.pipe(
    Effect.retry({ schedule: conflicts, while: (e) => e instanceof Retry }),
    Effect.catchIf((e): e is Retry => e instanceof Retry, (e) => Effect.die(e))
  ) as Effect.Effect<A, Exclude<E, Retry>, R>

/** A stream's state as of a version; its next read starts after it. */
export interface Folded<State> {
  readonly version: number
  readonly state: State
}

type Cache = FoldCache["Type"]

/** Streams are named for one decider each, so one memory holds every decider's folds: the newest 512 (a session's fold holds its messages' text, so the bound is the heap's). */
const folds = (cache: Cache) => cache.memory<Folded<unknown>>("folds", 512)

/** The fold this process remembers for `stream`, unread: a guess that may be behind the log (an append checks it). */
export const remembered = <State>(cache: Cache, stream: string): Folded<State> | undefined =>
  folds(cache).get(stream) as Folded<State> | undefined

/** Remember the fold an append of this process left, or forget it (`null`) so the next command reads. */
export const remember = <State>(cache: Cache, stream: string, folded: Folded<State> | null): void =>
  folded === null ? folds(cache).delete(stream) : folds(cache).set(stream, folded)

type AnyDecider<State, Command, Ev extends Event, Rejection> = Decider<State, Command, Ev, Rejection>

/**
 * The stream's state as of its newest committed event, and that event's version. `keep: false`
 * for a stream decided once or twice and never again (a reply's): it is read whole and not kept,
 * so it does not push the folds that are decided on again and again out of the memory.
 */
export const load = <State, Command, Ev extends Event, Rejection>(
  decider: AnyDecider<State, Command, Ev, Rejection>,
  stream: string,
  keep = true
) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const cache = yield* FoldCache
    const known = (keep ? remembered<State>(cache, stream) : undefined) ?? { version: 0, state: decider.initialState }
    const recorded = yield* store.readStream(stream, known.version)
    const last = recorded[recorded.length - 1]
    const folded = last === undefined ? known : { version: last.version, state: fold(decider, recorded.map((e) => e.event as Ev), known.state) }
    if (keep) remember(cache, stream, folded)
    return folded
  })

/** The stream's fold as remembered (unread, checked by the next append), or read when there is none. */
export const folded = <State, Command, Ev extends Event, Rejection>(decider: AnyDecider<State, Command, Ev, Rejection>, stream: string) =>
  Effect.flatMap(FoldCache, (cache) => {
    const known = remembered<State>(cache, stream)
    return known === undefined ? load(decider, stream) : Effect.succeed(known)
  })

/** What running a command did: the events appended (none when the decision had nothing to add), or a redelivery. */
export type Executed<State, Ev> =
  | { readonly _tag: "Appended"; readonly events: ReadonlyArray<Ev>; readonly state: State }
  | { readonly _tag: "AlreadyRecorded" }

export interface RunOptions<Rejection> {
  /** The command's idempotency keys, written in the append's transaction. */
  readonly keys?: ReadonlyArray<IdempotencyKey>
  /** Refusals that mean "the world moved on": run again from a fresh read instead of failing. */
  readonly again?: (rejection: Rejection) => boolean
  /** False for a stream decided once or twice and never again (see `load`): read every time, never kept. */
  readonly keep?: boolean
}

/**
 * One attempt: build the command from the state, decide, append at the version the state is of.
 * The state is the remembered fold when there is one, unread: the append's expected version
 * checks it (a conflict forgets it, and the next attempt reads), and a refusal decided on it is
 * decided again on a fresh read before it stands. A refusal fails with the decider's rejection,
 * or with `Retry` when `again` says so, as a version conflict does.
 */
export const attempt = <State, Command, Ev extends Event, Rejection, E, R>(
  decider: AnyDecider<State, Command, Ev, Rejection>,
  stream: string,
  command: (state: State) => Effect.Effect<Command, E, R>,
  options: RunOptions<Rejection> = {}
): Effect.Effect<Executed<State, Ev>, E | Rejection | StoreError | Retry, R | EventStore | FoldCache> =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const cache = yield* FoldCache
    const keys = options.keys ?? []
    const keep = options.keep !== false
    const known = keep ? remembered<State>(cache, stream) : undefined
    let { state, version } = known ?? (yield* load(decider, stream, keep))
    let decided = decider.decide(state, yield* command(state))
    if (Either.isLeft(decided) && known !== undefined) {
      ;({ state, version } = yield* load(decider, stream))
      decided = decider.decide(state, yield* command(state))
    }
    if (Either.isLeft(decided)) return yield* Effect.fail(options.again?.(decided.left) === true ? new Retry() : decided.left)
    const events = decided.right
    if (events.length === 0 && keys.length === 0) return { _tag: "Appended", events, state } as const
    const appended = yield* store.append(stream, version, events, { idempotencyKeys: keys }).pipe(
      Effect.catchIf((e): e is AppendConflict => e instanceof AppendConflict, () => {
        remember(cache, stream, null)
        return Effect.fail(new Retry())
      })
    )
    if (appended._tag === "AlreadyRecorded") return { _tag: "AlreadyRecorded" } as const
    const next = fold(decider, events, state)
    if (keep) remember(cache, stream, { version: appended.version, state: next })
    return { _tag: "Appended", events, state: next } as const
  })

/** Run a command on a stream, from a fresh read again on each conflict. */
export const run = <State, Command, Ev extends Event, Rejection, E, R>(
  decider: AnyDecider<State, Command, Ev, Rejection>,
  stream: string,
  command: (state: State) => Effect.Effect<Command, E, R>,
  options: RunOptions<Rejection> = {}
): Effect.Effect<Executed<State, Ev>, Exclude<E | Rejection, Retry> | StoreError, R | EventStore | FoldCache> =>
  retrying(attempt(decider, stream, command, options)).pipe(Effect.withSpan("Runner.run", { attributes: { stream } }))

/** Commands decided in order on one fold: the events and the state they leave, or null when any is refused. */
export const decideAll = <State, Command, Ev extends Event, Rejection>(
  decider: AnyDecider<State, Command, Ev, Rejection>,
  start: State,
  commands: ReadonlyArray<Command>
): { readonly events: ReadonlyArray<Ev>; readonly state: State } | null => {
  let state = start
  const events: Array<Ev> = []
  for (const command of commands) {
    const decided = decider.decide(state, command)
    if (Either.isLeft(decided)) return null
    events.push(...decided.right)
    state = fold(decider, decided.right, state)
  }
  return { events, state }
}

/** One stream's decision in a batch: its append, and the state it leaves when it commits. */
export interface Decided<State> {
  readonly append: BatchAppend
  readonly state: State
}

/**
 * Append many streams' decisions in one transaction; each that commits is remembered as its new
 * fold, each that fails is forgotten (the next command on it reads). Per decision, the append's exit.
 */
export const runBatch = <State>(decisions: ReadonlyArray<Decided<State>>) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const cache = yield* FoldCache
    const exits = yield* store.appendBatch(decisions.map((d) => d.append))
    decisions.forEach((d, i) => {
      const exit = exits[i]!
      if (Exit.isFailure(exit)) remember(cache, d.append.stream, null)
      else if (exit.value._tag === "Appended") remember(cache, d.append.stream, { version: exit.value.version, state: d.state })
    })
    return exits
  })
