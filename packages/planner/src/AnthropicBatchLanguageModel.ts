/**
 * `LanguageModel` on the Anthropic Message Batches API, at half the list price: the calls made
 * while every participant of a run is waiting go as one batch (identical bodies share one entry),
 * which is polled until it ends; each call then reads its answer as the Messages API path does.
 * The batches are kept in a state file, so a run stopped and started again with the same inputs
 * polls the batches it already paid for.
 */
import type Anthropic from "@anthropic-ai/sdk"
import { Config, type ConfigError, Context, Deferred, Duration, Effect, Layer, Ref } from "effect"
import { anthropicConfig, type AnthropicOptions, messageParams, readResponse } from "./AnthropicLanguageModel.js"
import { BatchRounds, type BatchStateError } from "./BatchRounds.js"
import { anthropicClient } from "./internal/anthropicClient.js"
import { batchApi } from "./internal/batchApi.js"
import { type Entry, type Settled, settleRound } from "./internal/batchRound.js"
import { batchState } from "./internal/batchState.js"
import { canonicalHash } from "./internal/canonical.js"
import { LanguageModel, type ModelRequest } from "./LanguageModel.js"
import type { LanguageModelError } from "./LanguageModelError.js"

/** What the layer needs; `batchConfig` reads all but the state file from the environment. */
export interface BatchOptions {
  readonly anthropic: AnthropicOptions
  /** Where the run's batches are kept until it has finished. */
  readonly stateFile: string
  readonly pollInterval: Duration.Duration
  /** How often an expired or canceled entry is submitted again before its call fails. */
  readonly resubmits: number
}

/** The Anthropic settings plus `VERBATIM_BATCH_POLL_INTERVAL` (default 30 seconds) and `VERBATIM_BATCH_RESUBMITS` (default 2). */
export const batchConfig = (stateFile: string): Config.Config<BatchOptions> =>
  Config.all({
    anthropic: anthropicConfig,
    stateFile: Config.succeed(stateFile),
    pollInterval: Config.duration("VERBATIM_BATCH_POLL_INTERVAL").pipe(Config.withDefault(Duration.seconds(30))),
    resubmits: Config.integer("VERBATIM_BATCH_RESUBMITS").pipe(
      Config.withDefault(2),
      Config.validate({ message: "must be 0 or more", validation: (n) => n >= 0 })
    )
  })

interface Waiting {
  readonly hash: string
  readonly params: Anthropic.MessageCreateParamsNonStreaming
  readonly done: Deferred.Deferred<{ readonly message: Anthropic.Message; readonly wallMs: number }, LanguageModelError>
}

interface Gathering {
  readonly participants: number
  readonly waiting: ReadonlyArray<Waiting>
  /** Per body hash, how often its result was used up: the same body asked again (a repeat) is a new entry. */
  readonly spent: ReadonlyMap<string, number>
}

/**
 * The custom id of a body: its hash and how often its result was used up before, so a run
 * repeated with the same inputs names its entries alike (and resumes them).
 */
const customId = (g: Gathering, hash: string) => `${hash.slice(0, 56)}-${g.spent.get(hash) ?? 0}`

/** Builds both services over one SDK client and the state file. */
export const make = (options: BatchOptions) =>
  Effect.gen(function*() {
    const client = yield* anthropicClient(options.anthropic)
    const state = yield* batchState(options.stateFile)
    const round = settleRound(batchApi(client, options.pollInterval), state, options.resubmits)
    const scope = yield* Effect.scope
    const gathering = yield* Ref.make<Gathering>({ participants: 0, waiting: [], spent: new Map() })

    const send = (waiting: ReadonlyArray<Waiting>, ids: ReadonlyMap<string, string>) => {
      const entries = new Map<string, Entry>(waiting.map((w) => [ids.get(w.hash)!, { customId: ids.get(w.hash)!, params: w.params }]))
      const each = (f: (w: Waiting) => Effect.Effect<unknown>) => Effect.forEach(waiting, f, { discard: true })
      const spend = (settled: ReadonlyMap<string, Settled>) =>
        Ref.update(gathering, (g) => {
          const spent = new Map(g.spent)
          for (const [hash, id] of ids) if (settled.get(id)?.spent === true) spent.set(hash, (spent.get(hash) ?? 0) + 1)
          return { ...g, spent }
        })
      return round([...entries.values()]).pipe(
        Effect.tap(spend),
        Effect.flatMap((settled) =>
          each((w) => {
            const answer = settled.get(ids.get(w.hash)!)?.answer
            return answer === undefined ? Deferred.die(w.done, new Error("the batch round gave no answer")) : Deferred.complete(w.done, answer)
          })
        ),
        // A state file that cannot be kept is no model failure: each caller dies with it, as with any defect.
        Effect.catchTag("BatchStateError", Effect.die),
        Effect.catchAllCause((cause) => each((w) => Deferred.failCause(w.done, cause))),
        Effect.onInterrupt(() => each((w) => Deferred.interrupt(w.done)))
      )
    }

    // Sends the waiting calls once no participant is still working towards one.
    const flush = Effect.flatMap(
      Ref.modify(gathering, (g) => {
        if (g.waiting.length === 0 || g.waiting.length < g.participants) return [null, g] as const
        const ids = new Map(g.waiting.map((w) => [w.hash, customId(g, w.hash)]))
        return [{ waiting: g.waiting, ids }, { ...g, waiting: [] }] as const
      }),
      (ready) => (ready === null ? Effect.void : Effect.asVoid(Effect.forkIn(send(ready.waiting, ready.ids), scope)))
    )

    const call = Effect.fn("AnthropicBatchLanguageModel.call")(function*(request: ModelRequest) {
      const params = messageParams(options.anthropic.model, request)
      const done = yield* Deferred.make<{ readonly message: Anthropic.Message; readonly wallMs: number }, LanguageModelError>()
      yield* Ref.update(gathering, (g) => ({ ...g, waiting: [...g.waiting, { hash: canonicalHash(params), params, done }] }))
      yield* flush
      const answer = yield* Deferred.await(done)
      return yield* readResponse(request, answer.message, answer.wallMs)
    })

    const participants = (delta: number) => Ref.update(gathering, (g) => ({ ...g, participants: g.participants + delta }))
    return {
      model: LanguageModel.of({ call }),
      rounds: BatchRounds.of({
        // Every participant counts from the start, so none can send a batch before the others have called.
        forEach: (items, f) => {
          const all = Array.from(items)
          const each = (item: (typeof all)[number]) => Effect.ensuring(f(item), Effect.zipRight(participants(-1), flush))
          return Effect.zipRight(participants(all.length), Effect.forEach(all, each, { concurrency: "unbounded" }))
        },
        finish: state.clear
      })
    }
  })

const context = (built: Effect.Effect.Success<ReturnType<typeof make>>) =>
  Context.make(BatchRounds, built.rounds).pipe(Context.add(LanguageModel, built.model))

/** Both services over explicit options. */
export const layer = (options: BatchOptions): Layer.Layer<LanguageModel | BatchRounds, BatchStateError> =>
  Layer.scopedContext(Effect.map(make(options), context))

/** Both services over `batchConfig(stateFile)`. */
export const layerConfig = (stateFile: string): Layer.Layer<LanguageModel | BatchRounds, BatchStateError | ConfigError.ConfigError> =>
  Layer.scopedContext(Effect.map(Effect.flatMap(batchConfig(stateFile), make), context))
