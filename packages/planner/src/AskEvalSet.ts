/**
 * The ask's evaluation set (`eval/asks.json`): questions over the evaluation conversations
 * (`eval/sessions.json`, all of them one person's notebook), each with the quotes a person would
 * accept and the answer recorded for the shipped ask prompt, by message (`case#seq`) rather than
 * by a request's refs, which change with the request.
 */
import { Effect, Schema } from "effect"
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { evalSetDirectory, EvalSetError } from "./EvalSet.js"

const Quote = Schema.Struct({ message: Schema.String, text: Schema.String })

export const AskEvalCase = Schema.Struct({
  id: Schema.String,
  question: Schema.String,
  expected: Schema.Array(Quote),
  recorded: Schema.Array(Quote)
})
export type AskEvalCase = typeof AskEvalCase.Type

export const AskEvalSet = Schema.Struct({ asks: Schema.Array(AskEvalCase) })

/** The ask evaluation set in `directory`, decoded. */
export const loadAsks = Effect.fn("AskEvalSet.load")(function*(directory: string = evalSetDirectory) {
  const path = join(directory, "asks.json")
  const text = yield* Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (error) => new EvalSetError({ reason: "unreadable", message: `cannot read ${path}: ${String(error)}` })
  })
  return yield* Schema.decodeUnknown(Schema.parseJson(AskEvalSet))(text).pipe(
    Effect.mapError((error) => new EvalSetError({ reason: "invalid", message: `${path}: ${error.message}` }))
  )
})
