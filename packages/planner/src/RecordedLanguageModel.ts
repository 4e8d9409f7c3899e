/**
 * A `LanguageModel` that replays cassettes: each response is a file named by the sha256 of the
 * request's canonical JSON. A request with no cassette is a `CassetteError` naming the hash.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { TokenUsage } from "@verbatim/domain/Events"
import { Json } from "@verbatim/domain/Json"
import { canonicalHash } from "./internal/canonical.js"
import { LanguageModel, type ModelRequest, type ToolCall } from "./LanguageModel.js"
import { LanguageModelError, LanguageModelErrorReason } from "./LanguageModelError.js"
import { Context, Data, Effect, Layer, ParseResult, Schema } from "effect"

/** A cassette that is not there, cannot be read, or does not decode. */
export class CassetteError extends Data.TaggedError("CassetteError")<{
  readonly reason: "missing" | "unreadable" | "invalid"
  readonly hash: string
  readonly path: string
  readonly message: string
}> {}

/** A cassette's answer: the tool's input (tagged `Plan` since the first cassettes, whichever tool it was), or an error. */
const Outcome = Schema.Union(
  Schema.TaggedStruct("Plan", { raw: Json, stopReason: Schema.String, usage: TokenUsage, model: Schema.String }),
  Schema.TaggedStruct("Error", {
    reason: LanguageModelErrorReason,
    message: Schema.String,
    status: Schema.optional(Schema.Number),
    retryAfterMs: Schema.optional(Schema.Number)
  })
)

/** The file format: the request as hashed (for review) and what the model answered. */
export const Cassette = Schema.Struct({ hash: Schema.String, request: Schema.Unknown, outcome: Outcome })
export type Cassette = typeof Cassette.Type

/** What identifies a request: everything sent to the model, nothing about how long to wait for it. */
export const hashedRequest = (request: ModelRequest) => ({
  system: request.system,
  tool: request.tool,
  userContent: request.userContent,
  maxTokens: request.maxTokens
})

/** sha256 hex of the request's JSON with object keys sorted at every depth. */
export const requestHash = (request: ModelRequest): string => canonicalHash(hashedRequest(request))

const replay = (cassette: Cassette): Effect.Effect<ToolCall, LanguageModelError> => {
  const outcome = cassette.outcome
  if (outcome._tag === "Error") {
    const { _tag: _, ...fields } = outcome
    return new LanguageModelError(fields)
  }
  return Effect.succeed({ raw: outcome.raw, stopReason: outcome.stopReason, usage: outcome.usage, model: outcome.model, durationMs: 0 })
}

/** Replays a directory of cassettes; `call` fails with `CassetteError` when a request was never recorded. */
export class RecordedLanguageModel extends Context.Tag("@verbatim/planner/RecordedLanguageModel")<
  RecordedLanguageModel,
  { readonly call: (request: ModelRequest) => Effect.Effect<ToolCall, LanguageModelError | CassetteError> }
>() {
  static readonly make = (directory: string) =>
    RecordedLanguageModel.of({
      call: (request) =>
        Effect.gen(function*() {
          const hash = requestHash(request)
          const path = join(directory, `${hash}.json`)
          const text = yield* Effect.tryPromise({
            try: () => readFile(path, "utf8"),
            catch: (error) =>
              new CassetteError({
                reason: (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : "unreadable",
                hash,
                path,
                message: `no recorded response for request ${hash} (${path})`
              })
          })
          const cassette = yield* Schema.decodeUnknown(Schema.parseJson(Cassette))(text).pipe(
            Effect.mapError((error) =>
              new CassetteError({ reason: "invalid", hash, path, message: ParseResult.TreeFormatter.formatErrorSync(error) })
            )
          )
          return yield* replay(cassette)
        })
    })

  /**
   * Both tags: `LanguageModel` for the code under test, where an unrecorded request dies with the
   * `CassetteError` (a setup fault must not be recorded as a model failure), and this tag for
   * callers that want the typed error.
   */
  static readonly layer = (directory: string): Layer.Layer<LanguageModel | RecordedLanguageModel> => {
    const recorded = RecordedLanguageModel.make(directory)
    return Layer.succeedContext(
      Context.make(RecordedLanguageModel, recorded).pipe(
        Context.add(LanguageModel, LanguageModel.of({
          call: (request) => recorded.call(request).pipe(Effect.catchTag("CassetteError", Effect.die))
        }))
      )
    )
  }

  /** Wraps a real `LanguageModel`, writing a cassette for every answer and error it gives. */
  static readonly layerRecording = (directory: string): Layer.Layer<LanguageModel, never, LanguageModel> =>
    Layer.effect(
      LanguageModel,
      Effect.map(LanguageModel, (inner) =>
        LanguageModel.of({
          call: (request) => {
            const hash = requestHash(request)
            const save = (outcome: typeof Outcome.Type) =>
              Effect.promise(async () => {
                await mkdir(directory, { recursive: true })
                const cassette: Cassette = { hash, request: hashedRequest(request), outcome }
                await writeFile(join(directory, `${hash}.json`), JSON.stringify(cassette, null, 2) + "\n")
              })
            return inner.call(request).pipe(
              Effect.tap((result) =>
                save({ _tag: "Plan", raw: result.raw, stopReason: result.stopReason, usage: result.usage, model: result.model })
              ),
              Effect.tapError((error) =>
                save({
                  _tag: "Error",
                  reason: error.reason,
                  message: error.message,
                  ...(error.status === undefined ? {} : { status: error.status }),
                  ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs })
                })
              )
            )
          }
        }))
    )
}
