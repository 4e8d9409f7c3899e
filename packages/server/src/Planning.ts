/**
 * One session's messages to plans: the prompt version, the token budget, chunking, request
 * fitting and the model call with its retry and truncation recovery, composed from the planner.
 */
import type { FitError } from "@verbatim/domain/FitPrompt"
import type { InboundMessage } from "@verbatim/domain/Message"
import { type BuiltRequest, buildRequest, chunkMessages, toolPromptText } from "@verbatim/planner/BuildRequest"
import { recordPlanTool } from "@verbatim/planner/PlanningTool"
import type { LanguageModelError } from "@verbatim/planner/LanguageModelError"
import { type PlanningLimits, planningLimitsConfig, requestSettings } from "@verbatim/planner/PlanningSettings"
import { type Prompt, PromptRegistry } from "@verbatim/planner/PromptRegistry"
import { type Contact, contactLine, messageLine, type PlanningMessage } from "@verbatim/planner/RenderRequest"
import { type ChunkPlan, planWithRecovery } from "@verbatim/planner/Recovery"
import { type RetryPolicy, retryPolicyConfig } from "@verbatim/planner/Retry"
import { counterFor } from "@verbatim/planner/Tokenizer"
import { Array as Arr, Config, Context, Effect, Either, Layer } from "effect"
import type { BudgetError } from "@verbatim/domain/Budget"

/** What planning a session produced: the prompt used and one plan per chunk, in session order. */
export interface SessionPlans {
  readonly prompt: Prompt
  readonly plans: ReadonlyArray<ChunkPlan<BuiltRequest>>
}

export type PlanningError = LanguageModelError | FitError | BudgetError

/** The model-facing settings, read once. */
export interface PlanningOptions {
  readonly limits: PlanningLimits
  readonly retry: RetryPolicy
}

export class PlanningConfig extends Context.Tag("@verbatim/server/PlanningConfig")<PlanningConfig, PlanningOptions>() {
  static readonly layerConfig = Layer.effect(
    PlanningConfig,
    Config.all({ limits: planningLimitsConfig, retry: retryPolicyConfig })
  )
}

/** How the model sees a stored message: reply-to as a seq of this session when it is one. */
export const planningMessages = (messages: ReadonlyArray<InboundMessage>): ReadonlyArray<PlanningMessage> => {
  const seqOf = new Map(messages.map((m) => [`${m.provider}:${m.providerMessageId}`, m.seq]))
  return messages.map((m) => ({
    seq: m.seq,
    kind: m.kind,
    forwardedFrom: m.forwardedFrom,
    replyToSeq: m.replyTo === null ? null : seqOf.get(`${m.provider}:${m.replyTo}`) ?? null,
    text: m.text
  }))
}

/** Plans a session under a prompt version (the configured one when omitted). */
export const planSession = Effect.fn("Planning.planSession")(function*(
  messages: Arr.NonEmptyReadonlyArray<InboundMessage>,
  contacts: ReadonlyArray<Contact>,
  promptVersion?: string
) {
  const registry = yield* PromptRegistry
  const options = yield* PlanningConfig
  const prompt = promptVersion === undefined ? registry.current : yield* registry.load(promptVersion)
  const shown = planningMessages(messages) as Arr.NonEmptyReadonlyArray<PlanningMessage>
  const count = yield* counterFor([
    prompt.text,
    toolPromptText(recordPlanTool),
    ...shown.map(messageLine),
    ...contacts.map(contactLine)
  ])
  const settings = yield* Either.match(requestSettings(options.limits, prompt.text, count), {
    onLeft: Effect.fail,
    onRight: Effect.succeed
  })
  const chunks = chunkMessages(shown, settings)
  const plans = yield* Effect.forEach(chunks, (chunk) =>
    planWithRecovery(chunk, (part) => Either.match(buildRequest(prompt.text, contacts, part, settings), {
      onLeft: Effect.fail,
      onRight: Effect.succeed
    }), { retry: options.retry, truncatedMaxTokens: options.limits.truncatedMaxTokens }))
  return { prompt, plans: plans.flat() } satisfies SessionPlans
})
