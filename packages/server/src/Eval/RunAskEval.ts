/**
 * The ask's evaluation set scored under the ask prompt: every evaluation conversation's messages
 * (commands left out, as capture leaves them out) are one person's notebook, each question is
 * asked of all of them through the same request and checks as `/ask`, and the quotes kept are
 * scored by precision and recall against the quotes a person would accept; the baseline is the
 * answer recorded for the shipped prompt. FAIL when a question has no recorded answer for this
 * prompt, or precision or recall falls below the baseline's.
 */
import type { AskCandidate, SentCandidate } from "@verbatim/domain/Ask/Candidates"
import { sentCandidates } from "@verbatim/domain/Ask/Candidates"
import { questionTerms } from "@verbatim/domain/Ask/Question"
import { type AnswerInput, checkAnswer } from "@verbatim/domain/Ask/Quotes"
import { addQuoteTallies, emptyQuoteTally, type ExpectedQuote, precision, type QuoteTally, recall, scoreQuotes } from "@verbatim/domain/Ask/Score"
import { MessageId, UserId } from "@verbatim/domain/Ids"
import { answerOf, askRequest, defaultAskCallSettings } from "@verbatim/planner/Ask"
import type { AskEvalCase } from "@verbatim/planner/AskEvalSet"
import type { EvalCase } from "@verbatim/planner/EvalSet"
import { LanguageModel } from "@verbatim/planner/LanguageModel"
import type { Prompt } from "@verbatim/planner/PromptRegistry"
import { counterFor } from "@verbatim/planner/Tokenizer"
import { Effect, Either } from "effect"
import { percent } from "../Replay/Gate.js"

const user = UserId.make("eval:sender")

/** Every evaluation message but the commands, in case order, a minute apart, filed under its expected person. */
export const notebook = (cases: ReadonlyArray<EvalCase>): ReadonlyArray<SentCandidate> => {
  const candidates: Array<AskCandidate> = []
  for (const evalCase of cases) {
    evalCase.messages.forEach((m, i) => {
      const owner = evalCase.expected[String(i + 1)]
      if (owner === "(bot)" && m.text.startsWith("/")) return
      candidates.push({
        messageId: MessageId.make(`${evalCase.id}#${i + 1}`),
        user,
        person: owner === undefined || owner.startsWith("(") ? null : owner,
        noteId: null,
        receivedAt: Date.UTC(2026, 10, 1) + candidates.length * 60_000,
        text: m.text,
        named: false
      })
    })
  }
  return sentCandidates(candidates, "UTC")
}

/** Quotes given by message as ranges of it: the first place each stands (a quote not there is left out). */
const ranges = (quotes: AskEvalCase["expected"], sent: ReadonlyArray<SentCandidate>): ReadonlyArray<ExpectedQuote> =>
  quotes.flatMap((q) => {
    const start = sent.find((c) => c.messageId === q.message)?.text.indexOf(q.text) ?? -1
    return start < 0 ? [] : [{ messageId: q.message, start, end: start + q.text.length }]
  })

/** The recorded answer as the model would give it for this request: by the request's refs. */
export const authoredAnswer = (ask: AskEvalCase, sent: ReadonlyArray<SentCandidate>): AnswerInput => ({
  quotes: ask.recorded.map((q) => ({ ref: sent.find((c) => c.messageId === q.message)?.ref ?? "m0", text: q.text }))
})

export type AskCaseResult =
  | { readonly _tag: "Scored"; readonly id: string; readonly baseline: QuoteTally; readonly candidate: QuoteTally; readonly dropped: number }
  | { readonly _tag: "Unrecorded"; readonly id: string; readonly message: string }

/** Asks one question of the notebook under `prompt` and scores the answer. */
export const runAskCase = Effect.fn("RunAskEval.runAskCase")(function*(ask: AskEvalCase, sent: ReadonlyArray<SentCandidate>, prompt: Prompt) {
  const expected = ranges(ask.expected, sent)
  const baseline = scoreQuotes(ranges(ask.recorded, sent), expected)
  const count = yield* counterFor([prompt.text, ...sent.map((c) => c.line)])
  const built = askRequest(prompt.text, ask.question, sent, questionTerms(ask.question), defaultAskCallSettings, count)
  if (Either.isLeft(built)) return { _tag: "Unrecorded", id: ask.id, message: built.left.message } satisfies AskCaseResult
  const called = yield* Effect.flatMap(LanguageModel, (model) => answerOf(model)(built.right.request)).pipe(
    Effect.catchAllDefect((defect) => Effect.fail({ message: defect instanceof Error ? defect.message : String(defect) })),
    Effect.either
  )
  if (Either.isLeft(called)) return { _tag: "Unrecorded", id: ask.id, message: called.left.message } satisfies AskCaseResult
  const checked = checkAnswer(called.right.answer, built.right.sent, user)
  return { _tag: "Scored", id: ask.id, baseline, candidate: scoreQuotes(checked.kept, expected), dropped: checked.dropped.length } satisfies AskCaseResult
})

export interface AskEvalVerdict {
  readonly verdict: "PASS" | "FAIL"
  readonly baseline: QuoteTally
  readonly candidate: QuoteTally
  readonly reasons: ReadonlyArray<string>
}

export const askEvalVerdict = (results: ReadonlyArray<AskCaseResult>): AskEvalVerdict => {
  const scored = results.flatMap((r) => (r._tag === "Scored" ? [r] : []))
  const baseline = scored.reduce((t, r) => addQuoteTallies(t, r.baseline), emptyQuoteTally)
  const candidate = scored.reduce((t, r) => addQuoteTallies(t, r.candidate), emptyQuoteTally)
  const unrecorded = results.length - scored.length
  const reasons = [
    ...(unrecorded > 0 ? [`${unrecorded} question(s) have no recorded answer for this prompt: run \`npm run eval -- --asks --live\` with ANTHROPIC_API_KEY set`] : []),
    ...(precision(candidate) < precision(baseline) - 1e-9 ? [`precision fell from ${percent(precision(baseline))} to ${percent(precision(candidate))}`] : []),
    ...(recall(candidate) < recall(baseline) - 1e-9 ? [`recall fell from ${percent(recall(baseline))} to ${percent(recall(candidate))}`] : [])
  ]
  return { verdict: reasons.length === 0 ? "PASS" : "FAIL", baseline, candidate, reasons }
}

const tally = (t: QuoteTally) =>
  `precision ${percent(precision(t))} (${t.right} of ${t.kept} quotes right), recall ${percent(recall(t))} (${t.found} of ${t.expected} found)`

/** The report: the verdict and totals, then each question that scored otherwise than its recorded answer, or was not recorded. */
export const renderAskEval = (promptVersion: string, results: ReadonlyArray<AskCaseResult>, verdict: AskEvalVerdict): string =>
  [
    `ask eval under ask prompt ${promptVersion}: ${results.length} question(s): ${verdict.verdict}`,
    `  ${tally(verdict.candidate)}`,
    `  recorded answers: ${tally(verdict.baseline)}`,
    ...verdict.reasons.map((r) => `  ${r}`),
    ...results.flatMap((r) =>
      r._tag === "Unrecorded"
        ? [`question ${r.id}: not recorded: ${r.message}`]
        : JSON.stringify(r.candidate) === JSON.stringify(r.baseline) && r.dropped === 0
        ? []
        : [`question ${r.id}: ${tally(r.candidate)}; ${r.dropped} quote(s) dropped`]
    ),
    ""
  ].join("\n")
