/**
 * The plan job: a closed session in, its plans and decisions recorded in one append. Idempotent
 * (a session whose plan is applied appends nothing) and exclusive per session (a lease). A model
 * that fails leaves a `PlanFailed` and the messages parked in a question: nothing is lost, and a
 * retry files them. A re-plan (replay promotion) that fails appends nothing, and messages the
 * user filed by answering a question are never planned again.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import type { Event, PlanFailureReason } from "@verbatim/domain/Events"
import type { PlanId, SessionId } from "@verbatim/domain/Ids"
import * as SessionState from "@verbatim/domain/Session/State"
import { EventStore } from "@verbatim/projections/EventStore"
import { Leases } from "@verbatim/projections/Leases"
import type { Contact } from "@verbatim/planner/RenderRequest"
import { Array as Arr, Context, Effect, Layer, Option } from "effect"
import { IdGenerator } from "./IdGenerator.js"
import { PlanningConfig, type PlanningError, planSession } from "./Planning.js"
import { LanguageModel } from "@verbatim/planner/LanguageModel"
import { PromptRegistry } from "@verbatim/planner/PromptRegistry"
import { Tokenizer } from "@verbatim/planner/Tokenizer"
import { knownPeople } from "./People.js"
import { failureEvents, planEvents } from "./PlanRecording.js"
import { sessionStream } from "./Streams.js"

/** What one run did. */
export type PlanOutcome = "planned" | "failed" | "already-planned" | "not-closed" | "busy" | "no-model"

/** The lease a run holds on its session: another process planning it shows as this key's holder. */
export const planLease = (sessionId: SessionId) => `plan:${sessionId}`

const failureReason = (error: PlanningError | { readonly _tag: "PromptError" }): PlanFailureReason => {
  switch (error._tag) {
    case "LanguageModelError":
      return error.reason
    default:
      return "invalid-request"
  }
}

/** Append, retrying at the new version while the only events that slipped in are edits (bodies are derived). */
const appendAfter = (stream: string, version: number, events: ReadonlyArray<Event>) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    let expected = version
    for (;;) {
      const result = yield* store.append(stream, expected, events).pipe(
        Effect.map(Option.some),
        Effect.catchTag("AppendConflict", () => Effect.succeed(Option.none()))
      )
      if (Option.isSome(result)) return true
      const since = (yield* store.readStream(stream)).filter((e) => e.version > expected)
      if (!since.every((e) => e.event._tag === "MessageEdited")) return false
      expected = since[since.length - 1]!.version
    }
  })

/** Options of a run: a prompt version other than the configured one, and plans it supersedes (replay promotion). */
export interface RunOptions {
  readonly promptVersion?: string
  readonly replan?: boolean
}

export class PlanJob extends Context.Tag("@verbatim/server/PlanJob")<PlanJob, {
  readonly run: (sessionId: SessionId, options?: RunOptions) => Effect.Effect<PlanOutcome>
}>() {
  static readonly make = Effect.gen(function*() {
    const context = yield* Effect.context<
      EventStore | SqlClient | IdGenerator | PromptRegistry | PlanningConfig | Tokenizer | LanguageModel
    >()
    const leases = yield* Leases
    const once = Effect.fn("PlanJob.run")(function*(sessionId: SessionId, options: RunOptions) {
      const store = yield* EventStore
      const stream = sessionStream(sessionId)
      const recorded = yield* store.readStream(stream)
      const state = SessionState.fold(recorded.map((e) => e.event))
      const version = recorded.length === 0 ? 0 : recorded[recorded.length - 1]!.version
      if (!state.closed || state.user === null) return "not-closed" as const
      const replan = options.replan === true
      if (state.appliedPlans.length > 0 && !replan) return "already-planned" as const
      // Messages the user filed by answering a question stay where the answer put them.
      const owed = { ...state, messages: SessionState.plannable(state) }
      if (!Arr.isNonEmptyReadonlyArray(owed.messages)) return "already-planned" as const
      const people = yield* knownPeople(state.user)
      const contacts: ReadonlyArray<Contact> = people.map((p) => ({ id: p.personId, name: p.name }))
      const planned = yield* planSession(owed.messages, contacts, options.promptVersion).pipe(Effect.either)
      if (planned._tag === "Left") {
        const error = planned.left
        yield* Effect.logWarning("planning failed").pipe(
          Effect.annotateLogs({ sessionId, replan, reason: error._tag === "LanguageModelError" ? error.reason : error._tag })
        )
        // A failed re-plan leaves the live plans in force: their messages are filed already.
        if (replan && state.appliedPlans.length > 0) return "failed" as const
        const events = yield* failureEvents(owed, failureReason(error), error.message)
        yield* appendAfter(stream, version, events)
        return "failed" as const
      }
      const supersedes: ReadonlyArray<PlanId> = replan ? state.appliedPlans : []
      const events = yield* planEvents(owed, planned.right, people, supersedes)
      const appended = yield* appendAfter(stream, version, events)
      return appended ? ("planned" as const) : ("busy" as const)
    })
    const run = (sessionId: SessionId, options: RunOptions = {}): Effect.Effect<PlanOutcome> =>
      leases.withLease(planLease(sessionId), once(sessionId, options), "busy" as const).pipe(
        Effect.tapErrorCause((cause) => Effect.logError("plan job failed", cause).pipe(Effect.annotateLogs({ sessionId }))),
        Effect.catchAllCause(() => Effect.succeed("failed" as const)),
        Effect.provide(context)
      )
    return PlanJob.of({ run })
  })

  static readonly layer = Layer.effect(PlanJob, PlanJob.make)

  /** No model configured: sessions stay closed and unplanned, their messages awaiting a plan. */
  static readonly layerNoModel = Layer.succeed(PlanJob, { run: () => Effect.succeed("no-model" as const) })
}
