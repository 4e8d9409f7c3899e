/**
 * Answering a question asked of a user's notes: the messages it finds (code, no model), the
 * model's choice of words among them (`record_answer`), every quote checked against the asker's
 * own messages as they read now, and the outcome recorded on the question's stream before its
 * reply is queued. The model down, planning held or no model configured: the question is
 * recorded as failed and the asker told to try again; nothing is made up.
 */
import { AskCommand, askDecider } from "@verbatim/domain/Ask/Decide"
import type { AskPosed } from "@verbatim/domain/Ask/Events"
import { sentCandidates, type SentCandidate } from "@verbatim/domain/Ask/Candidates"
import { questionTerms } from "@verbatim/domain/Ask/Question"
import { type CheckedAnswer, checkAnswer } from "@verbatim/domain/Ask/Quotes"
import type { TokenUsage } from "@verbatim/domain/TokenUsage"
import type { AskId } from "@verbatim/domain/Ids"
import { askStream } from "@verbatim/domain/Streams"
import { answerOf, AskPrompts, askRequest, defaultAskCallSettings } from "@verbatim/planner/Ask"
import { LanguageModel } from "@verbatim/planner/LanguageModel"
import { counterFor, Tokenizer } from "@verbatim/planner/Tokenizer"
import { AskBook } from "@verbatim/projections/AskBook"
import type { EventStore } from "@verbatim/projections/EventStore"
import type { FoldCache } from "@verbatim/projections/FoldCache"
import { Config, Context, DateTime, Effect, Either, Layer, Option } from "effect"
import { PlanningHold } from "../Planning/PlanningHold.js"
import * as Runner from "../Runner.js"
import { TimeZones } from "../TimeZones.js"
import type { WebLinks } from "../WebLinks.js"
import { replyTo } from "./Reply.js"

type Posed = typeof AskPosed.Type

type Needs = EventStore | FoldCache | AskBook | TimeZones | LanguageModel | AskPrompts | Tokenizer

const zeroUsage: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }

/** Record the outcome once; false when another run recorded one first. */
const finish = (askId: AskId, command: AskCommand) =>
  Runner.run(askDecider, askStream(askId), () => Effect.succeed(command), { keep: false }).pipe(
    Effect.as(true),
    Effect.catchTag("Rejected", () => Effect.succeed(false))
  )

const fail = (posed: Posed, reason: string, message: string) =>
  Effect.flatMap(DateTime.now, (now) =>
    finish(posed.askId, AskCommand.Fail({ failed: { askId: posed.askId, user: posed.user, reason, message, failedAt: now } })))

/** Find, ask, check and record: the answer of one posed question. */
const answerPosed = Effect.fn("Ask.answer")(function*(posed: Posed) {
  const book = yield* AskBook
  const prompt = (yield* AskPrompts).current
  const zone = yield* Effect.flatMap(TimeZones, (zones) => zones.zoneOf(posed.user))
  const terms = questionTerms(posed.question)
  const found = sentCandidates(yield* book.candidates(posed.user, posed.question, terms), zone)
  const answered = (
    sent: ReadonlyArray<SentCandidate>,
    left: ReadonlyArray<SentCandidate>,
    call: CheckedAnswer & { readonly model: string; readonly usage: TokenUsage; readonly durationMs: number }
  ) =>
    Effect.flatMap(DateTime.now, (now) =>
      finish(posed.askId, AskCommand.Answer({
        answered: {
          askId: posed.askId,
          user: posed.user,
          sent: sent.map((c) => c.messageId),
          left: left.map((c) => c.messageId),
          kept: call.kept,
          dropped: call.dropped,
          model: call.model,
          promptVersion: prompt.version,
          promptHash: prompt.hash,
          usage: call.usage,
          durationMs: call.durationMs,
          answeredAt: now
        }
      })))
  // Nothing of theirs to look through: nothing answers, and no model is asked.
  if (found.length === 0) return yield* answered([], [], { kept: [], dropped: [], model: "none", usage: zeroUsage, durationMs: 0 })
  const count = yield* counterFor([prompt.text, ...found.map((c) => c.line)])
  const built = askRequest(prompt.text, posed.question, found, terms, defaultAskCallSettings, count)
  if (Either.isLeft(built)) return yield* fail(posed, "too-large", built.left.message)
  const { left, request, sent } = built.right
  const called = yield* Effect.either(Effect.flatMap(LanguageModel, (model) => answerOf(model)(request)))
  if (Either.isLeft(called)) {
    yield* Effect.logWarning("asking the model failed").pipe(Effect.annotateLogs({ askId: posed.askId, reason: called.left.reason }))
    return yield* fail(posed, called.left.reason, called.left.message)
  }
  // Checked against the messages as they read now: an edit that landed during the call counts.
  const now = new Map((yield* book.texts(sent.map((c) => c.messageId))).map((m) => [m.messageId, m]))
  const current = sent.flatMap((c) => {
    const message = now.get(c.messageId)
    return message === undefined ? [] : [{ ref: c.ref, messageId: c.messageId, user: message.user, text: message.text }]
  })
  const checked = checkAnswer(called.right.answer, current, posed.user)
  return yield* answered(sent, left, { ...checked, model: called.right.model, usage: called.right.usage, durationMs: called.right.durationMs })
})

/** `VERBATIM_ASK_MAX_QUOTES`: the most quotes a chat answer shows (5 when unset); the page shows them all. */
export const maxQuotesConfig = Config.integer("VERBATIM_ASK_MAX_QUOTES").pipe(
  Config.validate({ message: "must be a positive whole number", validation: (n) => n > 0 }),
  Config.withDefault(5)
)

type ModelNeeds = Exclude<Needs, EventStore | FoldCache | AskBook | TimeZones>

/** Answers questions; with no model configured every question fails as `no-model`. */
export class Asking extends Context.Tag("@verbatim/server/Asking")<Asking, {
  /** Finish a posed question (answer it, or record why not), then queue its reply if it was asked in a chat. */
  readonly answer: (askId: AskId) => Effect.Effect<void, never, EventStore | FoldCache | AskBook | TimeZones | WebLinks>
}>() {
  /** Over the model's services when there is a model. */
  static readonly make = (model: Option.Option<Context.Context<ModelNeeds>>, maxQuotes: number) =>
    Asking.of({
      answer: (askId) =>
        Effect.gen(function*() {
          const { state } = yield* Runner.load(askDecider, askStream(askId), false)
          if (state._tag === "None") return
          if (state._tag === "Posed") {
            const posed = state.posed
            const hold = yield* Effect.serviceOption(PlanningHold)
            const held = Option.isSome(hold) && Option.isSome(yield* hold.value.current)
            if (Option.isNone(model)) yield* fail(posed, "no-model", "no model is configured")
            else if (held) yield* fail(posed, "held", "planning is held on an operator's error")
            else {
              yield* answerPosed(posed).pipe(
                Effect.provide(model.value),
                // A fault of our own is recorded as the question's failure: it is not asked of the model again and again.
                Effect.catchAllCause((cause) =>
                  Effect.zipRight(
                    Effect.logError("answering a question failed", cause).pipe(Effect.annotateLogs({ askId })),
                    fail(posed, "error", "the answer could not be made")
                  ))
              )
            }
          }
          yield* replyTo(askId, maxQuotes)
        }).pipe(
          Effect.catchAllCause((cause) => Effect.logError("answering a question failed", cause).pipe(Effect.annotateLogs({ askId })))
        )
    })

  /** Answering with the configured model, its prompts and tokenizer. */
  static readonly layer = Layer.effect(
    Asking,
    Effect.zipWith(Effect.context<ModelNeeds>(), maxQuotesConfig, (context, maxQuotes) => Asking.make(Option.some(context), maxQuotes))
  )

  /** No model configured: every question is recorded, and fails as `no-model`. */
  static readonly layerNoModel = Layer.effect(Asking, Effect.map(maxQuotesConfig, (maxQuotes) => Asking.make(Option.none(), maxQuotes)))
}
