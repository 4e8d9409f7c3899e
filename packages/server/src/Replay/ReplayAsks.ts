/**
 * Recorded questions asked again in the shadow, under another ask prompt or model: each answered
 * question's messages, as they read now, sent in the same order; the answer checked as `/ask`
 * checks it, so every quote is exact and the asker's own (the judge-free invariant: what the
 * model gave that is not is counted as dropped); and compared with the quotes the recorded answer
 * kept, and with the quotes the asker confirmed as answering it (the labels). Nothing is appended
 * to the log.
 */
import { type AskCandidate, sentCandidates } from "@verbatim/domain/Ask/Candidates"
import { quoteKey } from "@verbatim/domain/Ask/Decide"
import { questionTerms } from "@verbatim/domain/Ask/Question"
import { checkAnswer } from "@verbatim/domain/Ask/Quotes"
import type { Event } from "@verbatim/domain/Events"
import { answerOf, askRequest, defaultAskCallSettings } from "@verbatim/planner/Ask"
import { LanguageModel } from "@verbatim/planner/LanguageModel"
import type { Prompt } from "@verbatim/planner/PromptRegistry"
import { counterFor } from "@verbatim/planner/Tokenizer"
import { AskBook } from "@verbatim/projections/AskBook"
import { EventStore, start } from "@verbatim/projections/EventStore"
import { Chunk, Effect, Either, Stream } from "effect"
import { TimeZones } from "../TimeZones.js"

type Posed = Extract<Event, { readonly _tag: "AskPosed" }>
type Answered = Extract<Event, { readonly _tag: "AskAnswered" }>

/** A recorded question: asked, answered, and the quotes its asker confirmed. */
export interface RecordedAsk {
  readonly posed: Posed
  readonly answered: Answered
  readonly confirmed: ReadonlySet<string>
}


export type AskReplay =
  | {
    readonly _tag: "Replayed"
    readonly askId: string
    readonly question: string
    /** Quotes the recorded answer kept that the new one does not, and the new one's that it did not. */
    readonly lost: ReadonlyArray<string>
    readonly gained: ReadonlyArray<string>
    readonly kept: number
    readonly dropped: number
    readonly given: number
    /** Quotes the asker confirmed (labels), and how many of them the new answer keeps. */
    readonly labels: number
    readonly labelsKept: number
  }
  | { readonly _tag: "Failed"; readonly askId: string; readonly question: string; readonly message: string }

/** The recorded answered questions, oldest first, with their answers; only `user`'s when given. */
export const recordedAsks = (user: string | null) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const events = Chunk.toReadonlyArray(yield* Stream.runCollect(store.readAll(start, { types: ["AskPosed", "AskAnswered", "AskQuoteConfirmed"] })))
    const posed = new Map<string, Posed>()
    const answered: Array<RecordedAsk & { readonly confirmed: Set<string> }> = []
    const byId = new Map<string, Set<string>>()
    for (const { event } of events) {
      if (event._tag === "AskPosed") posed.set(event.askId, event)
      else if (event._tag === "AskAnswered") {
        const question = posed.get(event.askId)
        const confirmed = new Set<string>()
        byId.set(event.askId, confirmed)
        if (question !== undefined && (user === null || question.user === user)) answered.push({ posed: question, answered: event, confirmed })
      } else if (event._tag === "AskQuoteConfirmed") byId.get(event.askId)?.add(quoteKey(event))
    }
    return answered
  })

/** Ask one recorded question again under `prompt`. */
export const replayAsk = Effect.fn("ReplayAsks.replayAsk")(function*(recorded: RecordedAsk, prompt: Prompt) {
  const { answered, posed } = recorded
  const book = yield* AskBook
  const texts = new Map((yield* book.texts(answered.sent)).map((m) => [m.messageId, m]))
  const where = new Map((yield* book.quoted(answered.sent)).map((m) => [m.messageId, m]))
  const candidates = answered.sent.flatMap((messageId): ReadonlyArray<AskCandidate> => {
    const message = texts.get(messageId)
    const place = where.get(messageId)
    return message === undefined || place === undefined || message.user !== posed.user ? [] : [{
      messageId,
      user: message.user,
      person: place.person,
      noteId: place.noteId,
      receivedAt: Date.parse(place.receivedAt),
      text: message.text,
      named: false
    }]
  })
  const sent = sentCandidates(candidates, yield* Effect.flatMap(TimeZones, (zones) => zones.zoneOf(posed.user)))
  const failed = (message: string): AskReplay => ({ _tag: "Failed", askId: posed.askId, question: posed.question, message })
  const count = yield* counterFor([prompt.text, ...sent.map((c) => c.line)])
  const built = askRequest(prompt.text, posed.question, sent, questionTerms(posed.question), defaultAskCallSettings, count)
  if (Either.isLeft(built)) return failed(built.left.message)
  const called = yield* Effect.either(Effect.flatMap(LanguageModel, (model) => answerOf(model)(built.right.request)))
  if (Either.isLeft(called)) return failed(`${called.left.reason}: ${called.left.message}`)
  const checked = checkAnswer(called.right.answer, built.right.sent, posed.user)
  const before = new Set(answered.kept.map(quoteKey))
  const after = new Set(checked.kept.map(quoteKey))
  return {
    _tag: "Replayed",
    askId: posed.askId,
    question: posed.question,
    lost: answered.kept.filter((q) => !after.has(quoteKey(q))).map((q) => q.text),
    gained: checked.kept.filter((q) => !before.has(quoteKey(q))).map((q) => q.text),
    kept: checked.kept.length,
    dropped: checked.dropped.length,
    given: called.right.answer.quotes.length,
    labels: recorded.confirmed.size,
    labelsKept: [...recorded.confirmed].filter((key) => after.has(key)).length
  } satisfies AskReplay
})

/** The report: how many answers stayed the same, the quotes each changed one lost and gained, and what the model gave that was dropped. */
export const renderAskReplay = (promptVersion: string, results: ReadonlyArray<AskReplay>): string => {
  const replayed = results.flatMap((r) => (r._tag === "Replayed" ? [r] : []))
  const changed = replayed.filter((r) => r.lost.length + r.gained.length > 0)
  const given = replayed.reduce((n, r) => n + r.given, 0)
  const dropped = replayed.reduce((n, r) => n + r.dropped, 0)
  const labels = replayed.reduce((n, r) => n + r.labels, 0)
  const labelsKept = replayed.reduce((n, r) => n + r.labelsKept, 0)
  return [
    `replay of ${results.length} recorded question(s) under ask prompt ${promptVersion}: ${replayed.length - changed.length} answered the same, ${changed.length} changed, ${results.length - replayed.length} failed`,
    `  every quote kept is exact and the asker's own; the model's quotes that were not: ${dropped} of ${given}`,
    ...(labels === 0 ? [] : [`  quotes the askers confirmed answer their questions: ${labelsKept} of ${labels} kept`]),
    ...results.flatMap((r) =>
      r._tag === "Failed"
        ? [`question ${r.askId} (${JSON.stringify(r.question)}): failed: ${r.message}`]
        : r.lost.length + r.gained.length === 0
        ? []
        : [
          `question ${r.askId} (${JSON.stringify(r.question)}):`,
          ...r.lost.map((text) => `  - “${text}”`),
          ...r.gained.map((text) => `  + “${text}”`)
        ]
    ),
    ""
  ].join("\n")
}
