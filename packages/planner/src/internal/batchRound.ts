/**
 * One round of waiting calls settled through the Message Batches API: each entry resumes the
 * batch the state file says already holds it, the others go into one new batch; entries that
 * expire or are canceled go into a next batch while they may, then fail alone.
 */
import type Anthropic from "@anthropic-ai/sdk"
import { Array as Arr, Chunk, Effect, Either } from "effect"
import type { BatchStateError } from "../BatchRounds.js"
import { LanguageModelError } from "../LanguageModelError.js"
import { type BatchApi, entryError, sdkMessage, wallMs } from "./batchApi.js"
import type { BatchState } from "./batchState.js"

/** One distinct request of a round. */
export interface Entry {
  readonly customId: string
  readonly params: Anthropic.MessageCreateParamsNonStreaming
}

/** The answer and the batch time it took (summed over resubmissions), or the entry's own error. */
export type Answer = Either.Either<{ readonly message: Anthropic.Message; readonly wallMs: number }, LanguageModelError>

/**
 * An entry's answer, and whether its result is used up: one that succeeded or errored is, so the
 * same body asked again (a repeat, a retry) is a new entry; one that stayed expired or has no
 * result is not, so asking again reads the same batch instead of paying for another.
 */
export interface Settled {
  readonly answer: Answer
  readonly spent: boolean
}

type Answers = ReadonlyArray<readonly [string, Settled]>

/** Settles rounds over `api`, resubmitting an expired or canceled entry at most `resubmits` times. */
export const settleRound = (api: BatchApi, state: BatchState, resubmits: number) => {
  const submit = (entries: ReadonlyArray<Entry>) =>
    Effect.gen(function*() {
      const batch = yield* api.create(entries.map((e) => ({ custom_id: e.customId, params: e.params })))
      yield* state.add(batch.id, entries.map((e) => e.customId))
      return batch.id
    })

  const collect = (
    batchId: string,
    entries: ReadonlyArray<Entry>,
    spentMs: number
  ): Effect.Effect<Answers, LanguageModelError | BatchStateError> =>
    Effect.gen(function*() {
      const batch = yield* api.ended(batchId)
      const wall = spentMs + wallMs(batch)
      const lines = new Map(Chunk.toArray(yield* api.results(batchId)).map((line) => [line.custom_id, line.result]))
      const answers: Array<readonly [string, Settled]> = []
      const again: Array<Entry> = []
      for (const entry of entries) {
        const result = lines.get(entry.customId)
        if (result === undefined) {
          const missing = new LanguageModelError({ reason: "server", message: `batch ${batchId} ended without a result for ${entry.customId}` })
          answers.push([entry.customId, { answer: Either.left(missing), spent: false }])
        } else if (result.type === "succeeded") {
          answers.push([entry.customId, { answer: Either.right({ message: sdkMessage(result.message), wallMs: wall }), spent: true }])
        } else if (result.type === "errored") {
          answers.push([entry.customId, { answer: Either.left(entryError(result.error.error)), spent: true }])
        } else {
          const { submissions } = yield* state.find(entry.customId)
          if (submissions <= resubmits) {
            again.push(entry)
          } else {
            const message = `${result.type} in ${submissions} batch(es), the last ${batchId}; not submitted again`
            answers.push([entry.customId, { answer: Either.left(new LanguageModelError({ reason: "timeout", message })), spent: false }])
          }
        }
      }
      if (again.length === 0) return answers
      yield* Effect.logWarning("batch entries expired or canceled; submitted again").pipe(
        Effect.annotateLogs({ batch: batchId, entries: again.length })
      )
      return [...answers, ...yield* Effect.flatMap(submit(again), (id) => collect(id, again, wall))]
    })

  return Effect.fn("AnthropicBatchLanguageModel.round")(function*(entries: ReadonlyArray<Entry>) {
    const found = yield* Effect.forEach(entries, (entry) => Effect.map(state.find(entry.customId), (f) => [entry, f.batch] as const))
    const resumed = Arr.groupBy(found.filter(([, batch]) => batch !== null), ([, batch]) => batch!)
    const fresh = found.filter(([, batch]) => batch === null).map(([entry]) => entry)
    const jobs = [
      ...Object.entries(resumed).map(([id, held]) => collect(id, held.map(([entry]) => entry), 0)),
      ...(fresh.length === 0 ? [] : [Effect.flatMap(submit(fresh), (id) => collect(id, fresh, 0))])
    ]
    const answers = yield* Effect.all(jobs, { concurrency: "unbounded" })
    return new Map(answers.flat())
  })
}
