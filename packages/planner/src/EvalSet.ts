/**
 * The evaluation set shipped with the planner (`eval/sessions.json`): sessions written to exercise
 * the hard cases, each with the outcome a user would accept and the answer recorded for the
 * shipped prompt. Its cassettes (`eval/cassettes`) are keyed by the request's hash, which covers
 * the prompt's text: a changed prompt finds none and needs a live run.
 */
import { Plan } from "@verbatim/domain/Plan"
import { Data, Effect, Schema } from "effect"
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/** The folder shipped with this package: `sessions.json` and `cassettes/`. */
export const evalSetDirectory: string = fileURLToPath(new URL("../eval/", import.meta.url))

export const EvalCase = Schema.Struct({
  id: Schema.String,
  /** The hard case the session exercises, in plain words. */
  about: Schema.String,
  /** The sender's people as the prompt lists them. */
  contacts: Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String })),
  /** The sender's time zone (an IANA name; UTC when absent): the clock reminders' times are read on. */
  zone: Schema.optionalWith(Schema.String, { default: () => "UTC" }),
  /** Seq 1, 2, … in order; `at`, when the message was sent (an ISO instant; absent: a second apart from the epoch). */
  messages: Schema.Array(Schema.Struct({
    text: Schema.String,
    forwardedFrom: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
    at: Schema.optional(Schema.DateTimeUtc)
  })),
  /**
   * Where each message belongs: a contact's or a new person's name, `(unattached)` or `(bot)`.
   * A seq left out is not scored.
   */
  expected: Schema.Record({ key: Schema.String, value: Schema.String }),
  /**
   * The reminders the sender asked for: the message, its words exactly, and when on the sender's
   * clock (`YYYY-MM-DDTHH:MM`). Scored under prompts that plan reminders; absent: none is asked for.
   */
  reminders: Schema.optionalWith(Schema.Array(Schema.Struct({ seq: Schema.Int, quote: Schema.String, due: Schema.String })), { default: () => [] }),
  /** The answer recorded for the shipped prompt (what `eval --record` writes as its cassette). */
  recorded: Plan
})
export type EvalCase = typeof EvalCase.Type

export const EvalSet = Schema.Struct({ cases: Schema.Array(EvalCase) })

/** An evaluation set that cannot be read or does not decode. */
export class EvalSetError extends Data.TaggedError("EvalSetError")<{ readonly reason: "unreadable" | "invalid"; readonly message: string }> {}

/** The evaluation set in `directory`, decoded. */
export const load = Effect.fn("EvalSet.load")(function*(directory: string = evalSetDirectory) {
  const path = join(directory, "sessions.json")
  const text = yield* Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (error) => new EvalSetError({ reason: "unreadable", message: `cannot read ${path}: ${String(error)}` })
  })
  return yield* Schema.decodeUnknown(Schema.parseJson(EvalSet))(text).pipe(
    Effect.mapError((error) => new EvalSetError({ reason: "invalid", message: `${path}: ${error.message}` }))
  )
})
