/**
 * One session's messages to plans: the prompt version, the token budget, chunking, request
 * fitting and the model call with its retry and truncation recovery, composed from the planner.
 */
import type { FitError } from "@verbatim/domain/FitPrompt"
import { type InboundMessage, sentAtOf } from "@verbatim/domain/Message"
import { formatLocal, localAt } from "@verbatim/domain/Reminders/LocalTime"
import { type BuiltRequest, buildRequest, chunkMessages, toolPromptText } from "./BuildRequest.js"
import { contractOf } from "./PlanningTool.js"
import type { LanguageModelError } from "./LanguageModelError.js"
import { type PlanningLimits, planningLimitsConfig, requestSettings } from "./PlanningSettings.js"
import { type Prompt, PromptRegistry } from "./PromptRegistry.js"
import { type Contact, contactLine, messageLine, type PlanningMessage } from "./RenderRequest.js"
import { type ChunkPlan, planWithRecovery } from "./Recovery.js"
import { type RetryPolicy, retryPolicyConfig } from "./Retry.js"
import { counterFor } from "./Tokenizer.js"
import { Array as Arr, Config, Context, DateTime, Duration, Effect, Either, Layer } from "effect"
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
  /**
   * How long after its close a session waits for its attachments' text (transcripts, text read
   * from images) before it is planned with what it has (`VERBATIM_TRANSCRIBE_WAIT`, seconds).
   */
  readonly mediaWait: Duration.Duration
}

/** Two minutes: a voice note of a few minutes transcribes in seconds; a download retried a few times fits too. */
const mediaWaitConfig = Config.integer("VERBATIM_TRANSCRIBE_WAIT").pipe(
  Config.validate({ message: "must be a whole number of seconds, 0 or more", validation: (n) => n >= 0 }),
  Config.withDefault(120),
  Config.map(Duration.seconds)
)

export class PlanningConfig extends Context.Tag("@verbatim/server/PlanningConfig")<PlanningConfig, PlanningOptions>() {
  static readonly layerConfig = Layer.effect(
    PlanningConfig,
    Config.all({ limits: planningLimitsConfig, retry: retryPolicyConfig, mediaWait: mediaWaitConfig })
  )
}

/**
 * How the model sees a stored message: reply-to as a seq of this session when it is one, and,
 * given the sender's zone, when it was sent on their clock.
 */
export const planningMessages = (messages: ReadonlyArray<InboundMessage>, zone: string | null = null): ReadonlyArray<PlanningMessage> => {
  const seqOf = new Map(messages.map((m) => [`${m.provider}:${m.providerMessageId}`, m.seq]))
  // An album (messages sharing a media group) is named by its first message's seq, on each of them.
  const albums = new Map<string, number>()
  const size = new Map<string, number>()
  for (const m of messages) {
    if (m.mediaGroup === null) continue
    if (!albums.has(m.mediaGroup)) albums.set(m.mediaGroup, m.seq)
    size.set(m.mediaGroup, (size.get(m.mediaGroup) ?? 0) + 1)
  }
  for (const [group, count] of size) if (count < 2) albums.delete(group)
  return messages.map((m) => ({
    seq: m.seq,
    kind: m.kind,
    forwardedFrom: m.forwardedFrom,
    replyToSeq: m.replyTo === null ? null : seqOf.get(`${m.provider}:${m.replyTo}`) ?? null,
    text: m.text,
    album: m.mediaGroup === null ? undefined : albums.get(m.mediaGroup),
    at: zone === null ? undefined : formatLocal(localAt(zone, DateTime.toEpochMillis(sentAtOf(m))))
  }))
}

/**
 * Plans a session under a prompt version (the configured one when omitted). A prompt that plans
 * reminders is told the sender's time zone (`zone`, UTC when not given) and each message's time there.
 */
export const planSession = Effect.fn("Planning.planSession")(function*(
  messages: Arr.NonEmptyReadonlyArray<InboundMessage>,
  contacts: ReadonlyArray<Contact>,
  promptVersion?: string,
  zone?: string
) {
  const registry = yield* PromptRegistry
  const options = yield* PlanningConfig
  const prompt = promptVersion === undefined ? registry.current : yield* registry.load(promptVersion)
  const contract = contractOf(prompt.version)
  const clock = contract.clock ? zone ?? "UTC" : null
  const shown = planningMessages(messages, clock) as Arr.NonEmptyReadonlyArray<PlanningMessage>
  const count = yield* counterFor([
    prompt.text,
    toolPromptText(contract.tool),
    ...shown.map(messageLine),
    ...contacts.map(contactLine)
  ])
  const settings = yield* Either.match(requestSettings(options.limits, prompt.text, count, { tool: contract.tool, zone: clock }), {
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
