/**
 * The Message Batches API through the SDK, every answer decoded with a schema: create a batch,
 * retrieve it until it has ended, read its results (the JSONL file at `results_url`).
 */
import type Anthropic from "@anthropic-ai/sdk"
import { Clock, DateTime, Duration, Effect, ParseResult, Schedule, Schema, Stream } from "effect"
import { LanguageModelError } from "../LanguageModelError.js"
import { fromSdkError, reasonOfStatus } from "./anthropicError.js"

/** The fields of a batch this client reads. */
export const MessageBatch = Schema.Struct({
  id: Schema.String,
  processing_status: Schema.Literal("in_progress", "canceling", "ended"),
  request_counts: Schema.Struct({
    processing: Schema.Number,
    succeeded: Schema.Number,
    errored: Schema.Number,
    canceled: Schema.Number,
    expired: Schema.Number
  }),
  created_at: Schema.DateTimeUtc,
  ended_at: Schema.NullOr(Schema.DateTimeUtc)
})
export type MessageBatch = typeof MessageBatch.Type

/** The fields of an answer `readResponse` reads; the rest of the message is kept as it came. */
const Message = Schema.Struct({
  model: Schema.String,
  stop_reason: Schema.NullOr(Schema.String),
  content: Schema.Array(Schema.Struct({ type: Schema.String }, { key: Schema.String, value: Schema.Unknown })),
  usage: Schema.Struct({ input_tokens: Schema.Number, output_tokens: Schema.Number })
}, { key: Schema.String, value: Schema.Unknown })

/** One line of the results file. */
export const BatchResult = Schema.Struct({
  custom_id: Schema.String,
  result: Schema.Union(
    Schema.Struct({ type: Schema.Literal("succeeded"), message: Message }),
    Schema.Struct({
      type: Schema.Literal("errored"),
      error: Schema.Struct({ error: Schema.Struct({ type: Schema.String, message: Schema.String }) })
    }),
    Schema.Struct({ type: Schema.Literal("canceled", "expired") })
  )
})
export type BatchResult = typeof BatchResult.Type

/** An answer as the SDK's type: the schema checked every field `readResponse` reads. */
export const sdkMessage = (message: typeof Message.Type): Anthropic.Message => message as unknown as Anthropic.Message

/** The HTTP status an API error type stands for, so an errored entry reads like the same error on the Messages API. */
const statusOfType: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529
}

/** An `errored` entry as the error the same failure on the Messages API is. */
export const entryError = (error: { readonly type: string; readonly message: string }): LanguageModelError => {
  const status = statusOfType[error.type] ?? 500
  return new LanguageModelError({ reason: reasonOfStatus(status), message: `${error.type}: ${error.message}`, status })
}

const invalid = (what: string) => (error: ParseResult.ParseError) =>
  new LanguageModelError({ reason: "decode", message: `${what}: ${ParseResult.TreeFormatter.formatErrorSync(error)}`, cause: error })

const call = <A, I>(what: string, schema: Schema.Schema<A, I>, run: (signal: AbortSignal) => Promise<unknown>) =>
  Effect.gen(function*() {
    const started = yield* Clock.currentTimeMillis
    const answer = yield* Effect.tryPromise({ try: run, catch: (error) => fromSdkError(error, started) })
    return yield* Schema.decodeUnknown(schema)(answer).pipe(Effect.mapError(invalid(what)))
  })

/** How long a batch took, from creation to its end, in milliseconds. */
export const wallMs = (batch: MessageBatch): number =>
  batch.ended_at === null ? 0 : Duration.toMillis(DateTime.distanceDuration(batch.created_at, batch.ended_at))

/** The client's batch calls. */
export const batchApi = (client: Anthropic, pollInterval: Duration.Duration) => {
  const retrieve = (id: string) =>
    call(`batch ${id}`, MessageBatch, (signal) => client.messages.batches.retrieve(id, {}, { signal })).pipe(
      Effect.tap((batch) =>
        Effect.logDebug("batch polled").pipe(Effect.annotateLogs({ batch: id, status: batch.processing_status, ...batch.request_counts }))
      )
    )
  return {
    create: (requests: ReadonlyArray<{ readonly custom_id: string; readonly params: Anthropic.MessageCreateParamsNonStreaming }>) =>
      call("new batch", MessageBatch, (signal) => client.messages.batches.create({ requests: [...requests] }, { signal })).pipe(
        Effect.tap((batch) => Effect.logInfo("batch created").pipe(Effect.annotateLogs({ batch: batch.id, requests: requests.length })))
      ),
    /** Polls every `pollInterval` until the batch has ended. */
    ended: (id: string) =>
      Effect.repeat(
        retrieve(id),
        Schedule.recurUntil<MessageBatch>((batch) => batch.processing_status === "ended").pipe(Schedule.addDelay(() => pollInterval))
      ),
    /** Every line of the batch's results. */
    results: (id: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (started) =>
        Effect.tryPromise({ try: (signal) => client.messages.batches.results(id, {}, { signal }), catch: (error) => fromSdkError(error, started) }).pipe(
          Effect.flatMap((lines) =>
            Stream.fromAsyncIterable(lines, (error) => fromSdkError(error, started)).pipe(
              Stream.mapEffect((line) => Schema.decodeUnknown(BatchResult)(line).pipe(Effect.mapError(invalid(`a result of batch ${id}`)))),
              Stream.runCollect
            )
          )
        ))
  }
}

export type BatchApi = ReturnType<typeof batchApi>
