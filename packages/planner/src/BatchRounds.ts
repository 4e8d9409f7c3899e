/**
 * Model calls gathered into Message Batches: the callers that take part in a run, so a batch is
 * sent once each of them is waiting on a call (or has finished), and the end of that run.
 */
import { Context, Data, type Effect } from "effect"

/** The file that keeps a run's batches cannot be read, written or removed. */
export class BatchStateError extends Data.TaggedError("BatchStateError")<{
  readonly file: string
  readonly message: string
}> {}

export class BatchRounds extends Context.Tag("@verbatim/planner/BatchRounds")<
  BatchRounds,
  {
    /**
     * Runs `effect` as one participant: the calls waiting are sent as a batch once every
     * participant is waiting on one or has finished. A call made outside any participant is
     * sent at once.
     */
    readonly participant: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
    /** The run is over: its batches are forgotten, so the next run submits afresh. */
    readonly finish: Effect.Effect<void, BatchStateError>
  }
>() {}
