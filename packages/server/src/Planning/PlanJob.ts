/**
 * The plan job: a closed session's owed messages planned by the model, and the plans recorded by
 * the session decider in one append. Idempotent (a planned session appends nothing) and exclusive
 * per session (a lease). A model that fails, or a plan the store refuses, leaves a `PlanFailed`
 * and the messages parked in a question: nothing is lost, and a retry files them. A re-plan
 * (replay promotion) that fails appends nothing, and messages the user filed by answering a
 * question are never planned again. A failure only the operator can cure (key, permission,
 * model, billing) records nothing either: it holds planning (`PlanningHold`) and the run is `held`.
 * A session whose planning died with the process three runs in a row (the lease says so) is
 * parked and no longer planned but on the operator's word. Every run is logged, timed and
 * counted (`PlanJobReport`).
 */
import type { PlanFailureReason } from "@verbatim/domain/Events"
import type { SessionId } from "@verbatim/domain/Ids"
import { Command, type PlannedChunk } from "@verbatim/domain/Session/Commands"
import { promotion } from "@verbatim/domain/Session/Corrections"
import { sessionDecider } from "@verbatim/domain/Session/Decide"
import type { KnownPerson } from "@verbatim/domain/Session/People"
import * as SessionState from "@verbatim/domain/Session/State"
import type { Event } from "@verbatim/domain/Events"
import type { EventStore } from "@verbatim/projections/EventStore"
import type { FoldCache } from "@verbatim/projections/FoldCache"
import { Leases, maxCrashes } from "@verbatim/projections/Leases"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import type { Contact } from "@verbatim/planner/RenderRequest"
import { Array as Arr, Clock, Context, DateTime, Duration, Effect, Either, Layer } from "effect"
import { IdGenerator } from "../IdGenerator.js"
import * as Metrics from "../Metrics.js"
import { counted, type UsageSink } from "./PlanJobReport.js"
import { PlanningConfig, type PlanningError, planSession, type SessionPlans } from "@verbatim/planner/Planning"
import { LanguageModel } from "@verbatim/planner/LanguageModel"
import { PromptRegistry } from "@verbatim/planner/PromptRegistry"
import { operatorFault } from "@verbatim/planner/LanguageModelError"
import { isRetryable } from "@verbatim/planner/Retry"
import { Tokenizer } from "@verbatim/planner/Tokenizer"
import { PlanningHold } from "./PlanningHold.js"
import type { PlanOutcome, RunOptions } from "./PlanRun.js"

export type { PlanOutcome, RunOptions } from "./PlanRun.js"
import { execute, load } from "../Sessions.js"
import { TimeZones } from "../TimeZones.js"

/** The lease key of a session's planning. */
export const planLease = (sessionId: SessionId) => `plan:${sessionId}`

const failureReason = (error: PlanningError | { readonly _tag: "PromptError" }): PlanFailureReason => {
  switch (error._tag) {
    case "LanguageModelError":
      return error.reason
    default:
      return "invalid-request"
  }
}

/** The planner's chunks as the decider records them. */
const chunksOf = (planned: SessionPlans): ReadonlyArray<PlannedChunk> =>
  planned.plans.map((p) => ({
    plan: p.result.plan,
    raw: p.result.raw,
    model: p.result.model,
    usage: p.result.usage,
    chunk: p.built.chunk,
    truncation: p.built.truncation,
    durationMs: p.result.durationMs
  }))

type Needs =
  | EventStore
  | FoldCache
  | SessionLookups
  | IdGenerator
  | PromptRegistry
  | PlanningConfig
  | Tokenizer
  | LanguageModel
  | PlanningHold
  | TimeZones

/** Record a failed attempt; the decider parks the owed messages the first time. */
const recordFailure = (sessionId: SessionId, revision: number, replan: boolean, reason: PlanFailureReason, detail: string) =>
  Effect.gen(function*() {
    const ids = yield* Effect.flatMap(IdGenerator, (g) => g.supply)
    yield* execute(sessionId, () => Effect.succeed(Command.FailPlan({ reason, detail, revision, replan, ids }))).pipe(
      // Something other than an edit came first (an answer, another plan): the session moved on.
      Effect.catchTag("Rejected", () => Effect.void)
    )
    return "failed" as const
  })

/**
 * The runs before this one died with the process (`lapses`, from the lease) `maxCrashes` times:
 * its messages are parked, the log says which session, and no model is called for it again.
 */
const parkCrashing = (sessionId: SessionId, revision: number, lapses: number) =>
  Effect.zipRight(
    Effect.zipRight(
      Effect.logError("planning this session stopped the process again and again: its messages are parked as a question").pipe(
        Effect.annotateLogs({ job: "plan", sessionId, crashes: lapses })
      ),
      Metrics.parked("plan")
    ),
    Effect.as(
      recordFailure(sessionId, revision, false, "crashed", `planning this session stopped the process ${lapses} times in a row`),
      "crashed" as const
    )
  )

const once = Effect.fn("PlanJob.run")(function*(sessionId: SessionId, options: RunOptions, usage: UsageSink, lapses: number) {
  const read = yield* SessionLookups
  const { state } = yield* load(sessionId)
  if (!state.closed || state.user === null) return "not-closed" as const
  const user = state.user
  const replan = options.replan === true
  if (state.appliedPlans.length > 0 && !replan) return "already-planned" as const
  // Messages the user filed by answering a question stay where the answer put them.
  const owed = SessionState.plannable(state)
  if (!Arr.isNonEmptyReadonlyArray(owed)) return "already-planned" as const
  // Attachments still being fetched or read: planned once their text lands, or the wait is over.
  if (SessionState.awaitedMedia(state) > 0 && state.closedAt !== null) {
    const { mediaWait } = yield* PlanningConfig
    if ((yield* Clock.currentTimeMillis) < state.closedAt + Duration.toMillis(mediaWait)) return "awaiting-media" as const
  }
  if (!replan) {
    if (state.lastFailure === "crashed" && options.afterCrashes !== true) return "crashed" as const
    if (lapses >= maxCrashes) return yield* parkCrashing(sessionId, state.revision, lapses)
  }
  const people = yield* read.knownPeople(user)
  const contacts: ReadonlyArray<Contact> = people.map((p) => ({ id: p.personId, name: p.name }))
  const zone = yield* Effect.flatMap(TimeZones, (zones) => zones.zoneOf(user))
  const planned = yield* planSession(owed, contacts, options.promptVersion, zone).pipe(Effect.either)
  const hold = yield* PlanningHold
  if (planned._tag === "Left") {
    const error = planned.left
    if (error._tag === "LanguageModelError") {
      const fault = operatorFault(error)
      if (fault !== null) {
        yield* hold.hold(fault, error)
        return "held" as const
      }
      // The provider answered past its checks of key and model: whatever holds planning is cured.
      if (!isRetryable(error)) yield* hold.clear
    }
    yield* Effect.logWarning("planning failed").pipe(
      Effect.annotateLogs({ sessionId, replan, reason: error._tag === "LanguageModelError" ? error.reason : error._tag })
    )
    return yield* recordFailure(sessionId, state.revision, replan, failureReason(error), error.message)
  }
  yield* hold.clear
  const ids = yield* Effect.flatMap(IdGenerator, (g) => g.supply)
  const prompt = { version: planned.right.prompt.version, hash: planned.right.prompt.hash }
  const plans = chunksOf(planned.right)
  for (const p of plans) usage.add(p.model, p.usage)
  const now = yield* DateTime.now
  const told = (before: SessionState.SessionState, events: ReadonlyArray<Event>) =>
    replan && options.promoted !== undefined ? options.promoted(promotion(before, events)) : Effect.void
  const record = (known: ReadonlyArray<KnownPerson>) => Command.RecordPlans({ prompt, plans, known, revision: state.revision, replan, ids, now })
  if (options.preview === true) {
    const decided = sessionDecider.decide(state, record(yield* read.knownPeople(user)))
    if (Either.isLeft(decided)) return "busy" as const
    yield* told(state, decided.right)
    return "previewed" as const
  }
  return yield* execute(sessionId, () => Effect.map(read.knownPeople(user), record)).pipe(
      Effect.tap((executed) => executed._tag === "Appended" ? told(state, executed.events) : Effect.void),
      Effect.as("planned" as const),
      Effect.catchTag("Rejected", () => Effect.succeed("busy" as const)),
      // A plan the store refuses is a recorded failure, never a silent loop of model calls.
      Effect.catchTag("StoreError", (error) =>
        Effect.zipRight(
          Effect.logError("the store refused a plan").pipe(Effect.annotateLogs({ sessionId, reason: error.reason, detail: error.message })),
          recordFailure(sessionId, state.revision, replan, "store", `the store refused the plan: ${error.message}`)
        ))
    )
})

export class PlanJob extends Context.Tag("@verbatim/server/PlanJob")<PlanJob, {
  /** Whether a model is configured at all (without one, every run is `no-model`). */
  readonly configured: boolean
  readonly run: (sessionId: SessionId, options?: RunOptions) => Effect.Effect<PlanOutcome>
  /** A session the trigger keeps waiting on the hold without a run: reported as a held run, once. */
  readonly held: (sessionId: SessionId) => Effect.Effect<void>
}>() {
  static readonly make = Effect.gen(function*() {
    const context = yield* Effect.context<Needs>()
    const leases = yield* Leases
    const report = counted()
    const run = (sessionId: SessionId, options: RunOptions = {}): Effect.Effect<PlanOutcome> =>
      report.run(sessionId, (usage) =>
        leases.withLeaseLapses(planLease(sessionId), (lapses) => once(sessionId, options, usage, lapses), "busy" as const).pipe(
          Effect.tapErrorCause((cause) => Effect.logError("plan job failed", cause).pipe(Effect.annotateLogs({ sessionId }))),
          Effect.catchAllCause(() => Effect.succeed("failed" as const)),
          Effect.provide(context)
        ))
    return PlanJob.of({ configured: true, run, held: report.held })
  })

  static readonly layer = Layer.effect(PlanJob, PlanJob.make)

  /** No model configured: sessions stay closed and unplanned, their messages awaiting a plan. */
  static readonly layerNoModel = Layer.sync(PlanJob, () => {
    const report = counted()
    return PlanJob.of({ configured: false, run: (sessionId) => report.run(sessionId, () => Effect.succeed("no-model" as const)), held: report.held })
  })
}
