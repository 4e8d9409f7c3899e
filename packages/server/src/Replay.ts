/**
 * Shadow re-planning: a recorded session planned again under another prompt version (or model)
 * with `planSession` and `applyPlan`, compared with the decisions of its live plans. Nothing is
 * appended; the live projections are never touched. The prompt sees the contacts the live plan
 * saw (people recorded before that plan), so the same prompt and the same model reproduce the
 * same request. With `aa` the live prompt is planned against itself to measure the noise floor;
 * with Message Batches provided, the sessions are replayed together so their calls share batches.
 */
import { applyPlan, type Decisions } from "@verbatim/domain/ApplyPlan/ApplyPlan"
import type { TokenUsage } from "@verbatim/domain/Events"
import type { SessionId } from "@verbatim/domain/Ids"
import type { InboundMessage } from "@verbatim/domain/Message"
import { Plan } from "@verbatim/domain/Plan"
import * as SessionState from "@verbatim/domain/Session/State"
import { EventStore, type RecordedEvent } from "@verbatim/projections/EventStore"
import { Jobs } from "@verbatim/projections/Jobs"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import { BatchRounds } from "@verbatim/planner/BatchRounds"
import type { Directory } from "@verbatim/domain/Eval/Directory"
import { Array as Arr, DateTime, Effect, Either, Option, Schema } from "effect"
import { planSession } from "@verbatim/planner/Planning"
import type { Progress } from "./Progress.js"
import { type DecisionDiff, diffDecisions, isEmpty } from "./Replay/Diff.js"
import { sessionStream } from "@verbatim/domain/Streams"
import { evaluate, type Evaluation, loadPeople } from "./Replay/Evaluate.js"
import { stability } from "./Replay/Stability.js"
import { compareReminders, zoneOf } from "./Replay/Reminders.js"
import { type ReminderDiff, remindersUnchanged } from "@verbatim/domain/Eval/ReminderDiff"

/** Tokens in and out, summed over a session's plans. */
export interface Tokens {
  readonly input: number
  readonly output: number
}

/** A replayed session: what changed, how it scores, and what it was planned under. */
export interface Compared {
  readonly sessionId: SessionId
  readonly status: "unchanged" | "changed"
  /** The session's last event position when replayed: a later run over more events is another input. */
  readonly lastPosition: number
  /** Log positions of the transcripts (text derived from attachments) the session's messages were read with. */
  readonly transcripts: ReadonlyArray<number>
  readonly diff: DecisionDiff
  /** The reminders the candidate adds, loses or moves in time, judged by what the user did with the live ones. */
  readonly reminders: ReminderDiff
  readonly model: string
  /** Whether the shadow reused the live plans' calls from the log (same prompt hash and model): no tokens spent. */
  readonly reused: boolean
  /** The prompts of the live plans, `version@sha256`. */
  readonly livePrompts: ReadonlyArray<string>
  readonly tokens: { readonly live: Tokens; readonly shadow: Tokens }
  /** What the shadow's calls are priced at: `batch` (half the list price) when they went through Message Batches. */
  readonly rate: "list" | "batch"
  /**
   * Milliseconds spent in model calls: the shadow's summed over its calls (a batched call counts
   * its batch's wall time); null when unknown (live plans do not record it) or nothing was called.
   */
  readonly latency: { readonly live: number | null; readonly shadow: number | null }
  readonly evaluation: Evaluation
  /** With `repeat` above 1: the messages every repeat placed as the first did, of all the session's messages. */
  readonly stability: { readonly runs: number; readonly stable: number; readonly messages: number }
  /** Messages whose words were forgotten: left out of the replay, counted here. */
  readonly erased?: number
}

/** One session's outcome. */
export type SessionReplay =
  | Compared
  | { readonly sessionId: SessionId; readonly status: "failed"; readonly error: string }
  | { readonly sessionId: SessionId; readonly status: "skipped"; readonly error: string }

/** Which sessions to replay. */
export interface Selection {
  /** Empty: every closed session. */
  readonly sessions: ReadonlyArray<string>
  /** Only sessions opened at or after this time. */
  readonly since: Option.Option<DateTime.Utc>
}

const sum = (usages: ReadonlyArray<TokenUsage>): Tokens => ({
  input: usages.reduce((n, u) => n + u.inputTokens, 0),
  output: usages.reduce((n, u) => n + u.outputTokens, 0)
})

type Produced = Extract<RecordedEvent["event"], { readonly _tag: "PlanProduced" }>

/** Closed sessions to replay, in the order they were opened. */
export const selectSessions = (options: Selection) =>
  Effect.gen(function*() {
    if (options.sessions.length > 0) return options.sessions as ReadonlyArray<SessionId>
    return yield* (yield* Jobs).closedSessions(options.since)
  })

/** The first position of the append that recorded a plan (the people it added come before it). */
const appendStart = (events: ReadonlyArray<RecordedEvent>, plan: RecordedEvent): number => {
  let index = events.indexOf(plan)
  while (index > 0 && ["PersonAdded", "QuestionWithdrawn"].includes(events[index - 1]!.event._tag)) index -= 1
  return events[index]!.position
}

const decide = (messages: ReadonlyArray<InboundMessage>, chunk: { readonly fromSeq: number; readonly toSeq: number }, plan: Plan): Decisions =>
  applyPlan(messages.filter((m) => m.seq >= chunk.fromSeq && m.seq <= chunk.toSeq), plan)

const decodePlan = Schema.decodeUnknownOption(Plan)

/** The live plans' time in model calls, when every one of them recorded it (plans before PlanProduced v3 did not). */
const liveLatency = (live: ReadonlyArray<{ readonly event: Produced }>): number | null =>
  live.length === 0 || live.some((e) => e.event.durationMs === null) ? null : live.reduce((n, e) => n + e.event.durationMs!, 0)

/** How to replay: the prompt, how many times to plan each session, and the users' people to score against. */
export interface ReplayOptions {
  readonly promptVersion: string
  readonly repeat: number
  readonly people: (user: string) => Directory
  /**
   * The prompt's hash and the model the shadow would call (null: unknown, as with recorded
   * answers). When a session's live plans were made under both, a single run reuses them from the
   * log instead of calling the model again.
   */
  readonly reuse?: { readonly promptHash: string; readonly model: string | null }
  /**
   * A/A: the prompt planned against itself. Nothing is reused, sessions planned live under
   * another prompt are skipped, and the live plans count as the first of the runs whose
   * disagreement is the noise floor.
   */
  readonly aa?: boolean
}

/** Re-plan one session in the shadow (`repeat` times), compare with its live decisions and score both. */
export const replaySession = Effect.fn("Replay.replaySession")(function*(sessionId: SessionId, options: ReplayOptions) {
  const { promptVersion } = options
  const store = yield* EventStore
  const events = yield* store.readStream(sessionStream(sessionId))
  const state = SessionState.fold(events.map((e) => e.event))
  if (state.user === null) return { sessionId, status: "skipped", error: "no such session" } satisfies SessionReplay
  // Forgotten words are never sent to a model again: their messages are left out, and counted.
  const messages = state.erased.size === 0 ? state.messages : state.messages.filter((m) => !state.erased.has(m.id))
  if (!state.closed || !Arr.isNonEmptyReadonlyArray(messages)) {
    return { sessionId, status: "skipped", error: "not closed yet" } satisfies SessionReplay
  }
  const live = events.filter((e): e is RecordedEvent & { event: Produced } =>
    e.event._tag === "PlanProduced" && state.appliedPlans.includes(e.event.planId)
  )
  const cutoff = live.length === 0 ? Number.MAX_SAFE_INTEGER : appendStart(events, live[0]!)
  const contacts = yield* (yield* SessionLookups).contactsBefore(state.user, cutoff)
  const liveDecisions = live.map((e) =>
    decide(messages, e.event.chunk, Option.getOrElse(decodePlan(e.event.plan), () => ({ people: [], unattached: [], unclear: [], botMessages: [] })))
  )
  const people = options.people(state.user)
  const zone = yield* zoneOf(state.user)
  const promptHash = options.reuse?.promptHash
  const otherPrompt = live.find((e) => e.event.promptHash !== promptHash)
  if (options.aa === true && otherPrompt !== undefined) {
    const error = `planned live under prompt ${otherPrompt.event.promptVersion}@${otherPrompt.event.promptHash.slice(0, 12)}; A/A compares a prompt with itself`
    return { sessionId, status: "skipped", error } satisfies SessionReplay
  }
  const reusable = options.aa !== true && options.repeat <= 1 && options.reuse !== undefined && options.reuse.model !== null && live.length > 0 &&
    live.every((e) => e.event.promptHash === options.reuse!.promptHash && e.event.model === options.reuse!.model)
  // A defect here is one session's (an unrecorded request under a recorded model): report it, go on.
  const runs = reusable ? Either.right([]) : yield* Effect.forEach(Arr.range(1, Math.max(1, options.repeat)), () => planSession(messages, contacts, promptVersion, zone)).pipe(
    Effect.catchAllDefect((defect) => Effect.fail({ message: defect instanceof Error ? defect.message : String(defect) })),
    Effect.either
  )
  if (runs._tag === "Left") return { sessionId, status: "failed", error: runs.left.message } satisfies SessionReplay
  const planned = runs.right[0]
  const shadowRuns = planned === undefined
    ? [liveDecisions]
    : runs.right.map((run) => run.plans.map((p) => decide(messages, p.built.chunk, p.result.plan)))
  const shadowDecisions = shadowRuns[0]!
  const diff = diffDecisions(liveDecisions, shadowDecisions)
  const livePlans = live.map((e) => e.event.plan)
  const reminders = yield* compareReminders(zone, messages, livePlans, planned === undefined ? livePlans : planned.plans.map((p) => p.result.plan))
  return {
    sessionId,
    status: isEmpty(diff) && remindersUnchanged(reminders) ? "unchanged" : "changed",
    lastPosition: events[events.length - 1]!.position,
    transcripts: events.filter((e) => e.event._tag === "MediaTranscribed").map((e) => e.position),
    diff,
    reminders,
    model: planned === undefined ? options.reuse!.model! : [...new Set(planned.plans.map((p) => p.result.model))].join(", "),
    reused: planned === undefined,
    livePrompts: [...new Set(live.map((e) => `${e.event.promptVersion}@${e.event.promptHash}`))],
    tokens: { live: sum(live.map((e) => e.event.usage)), shadow: sum(planned?.plans.map((p) => p.result.usage) ?? []) },
    rate: planned !== undefined && Option.isSome(yield* Effect.serviceOption(BatchRounds)) ? "batch" : "list",
    latency: { live: liveLatency(live), shadow: planned === undefined ? null : planned.plans.reduce((n, p) => n + p.result.durationMs, 0) },
    evaluation: evaluate(events.map((e) => e.event), messages, people, liveDecisions, shadowDecisions),
    ...(state.erased.size === 0 ? {} : { erased: state.erased.size }),
    stability: stability(messages.map((m) => m.seq), options.aa === true && live.length > 0 ? [liveDecisions, ...shadowRuns] : shadowRuns, people)
  } satisfies SessionReplay
})

/**
 * Replay sessions: in order, or, with Message Batches (`BatchRounds` provided), all at once, so
 * their calls are gathered into shared batches; the run's batches are forgotten once it is done.
 */
export const replay = Effect.fn("Replay.replay")(function*(
  sessions: ReadonlyArray<SessionId>,
  options: Omit<ReplayOptions, "people">,
  progress?: Progress
) {
  const people = yield* loadPeople()
  const one = (sessionId: SessionId) =>
    Effect.tap(replaySession(sessionId, { ...options, people }), () => progress === undefined ? Effect.void : progress.advance())
  const batching = yield* Effect.serviceOption(BatchRounds)
  if (Option.isNone(batching)) return yield* Effect.forEach(sessions, one)
  const results = yield* batching.value.forEach(sessions, one)
  yield* batching.value.finish
  return results
})
