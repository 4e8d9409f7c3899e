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
     * `f` over every item at once, each as one participant: the calls waiting are sent as a batch
     * once every participant is waiting on one or has finished. Results keep the items' order. A
     * call made outside any participant is sent at once.
     */
    readonly forEach: <A, B, E, R>(items: Iterable<A>, f: (item: A) => Effect.Effect<B, E, R>) => Effect.Effect<Array<B>, E, R>
    /** The run is over: its batches are forgotten, so the next run submits afresh. */
    readonly finish: Effect.Effect<void, BatchStateError>
  }
>() {}
