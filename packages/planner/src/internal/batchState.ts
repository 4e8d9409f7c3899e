/**
 * The batches a replay has submitted and which requests each holds, kept in a file so a run
 * stopped half-way polls them again instead of paying for new ones. Written after every create
 * (to a temporary file, then renamed), removed once the replay has finished.
 */
import { Effect, Ref, Schema } from "effect"
import { readFile, rename, rm, writeFile } from "node:fs/promises"
import { BatchStateError } from "../BatchRounds.js"

const Saved = Schema.Struct({
  batches: Schema.Array(Schema.Struct({ id: Schema.String, customIds: Schema.Array(Schema.String) }))
})
type Saved = typeof Saved.Type

const failure = (file: string, what: string) => new BatchStateError({ file, message: `replay batch state ${file}: ${what}` })

const decode = Schema.decodeUnknown(Schema.parseJson(Saved))

const load = (file: string) =>
  Effect.tryPromise(() => readFile(file, "utf8")).pipe(
    Effect.catchIf((e) => (e.error as NodeJS.ErrnoException).code === "ENOENT", () => Effect.succeed(null)),
    Effect.mapError((e) => failure(file, `cannot read it: ${String(e.error)}`)),
    Effect.flatMap((text) =>
      text === null
        ? Effect.succeed<Saved>({ batches: [] })
        : Effect.mapError(decode(text), () => failure(file, "it is not a replay batch state file"))
    )
  )

/** The state of `file`, read once; absent is empty. */
export const batchState = (file: string) =>
  Effect.gen(function*() {
    const ref = yield* Ref.make(yield* load(file))
    const save = (saved: Saved) =>
      Effect.tryPromise(async () => {
        await writeFile(`${file}.tmp`, JSON.stringify(saved, null, 2) + "\n")
        await rename(`${file}.tmp`, file)
      }).pipe(Effect.mapError((e) => failure(file, `cannot write it: ${String(e.error)}`)))
    return {
      /** The last batch that holds `customId`, and how many batches have held it. */
      find: (customId: string) =>
        Effect.map(Ref.get(ref), ({ batches }) => {
          const holding = batches.filter((b) => b.customIds.includes(customId))
          return { batch: holding.at(-1)?.id ?? null, submissions: holding.length }
        }),
      add: (id: string, customIds: ReadonlyArray<string>) =>
        Effect.flatMap(Ref.updateAndGet(ref, ({ batches }) => ({ batches: [...batches, { id, customIds }] })), save),
      clear: Effect.zipRight(
        Ref.set(ref, { batches: [] }),
        Effect.tryPromise(() => rm(file, { force: true })).pipe(
          Effect.mapError((e) => failure(file, `cannot remove it: ${String(e.error)}`))
        )
      )
    }
  })

export type BatchState = Effect.Effect.Success<ReturnType<typeof batchState>>
