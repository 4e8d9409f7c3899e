/** The plan job over a temp SQLite store and the real Anthropic SDK talking to the fake Messages API. */
import type { NewMessage } from "@verbatim/domain/Inbound/Inbound"
import type { SessionId } from "@verbatim/domain/Ids"
import * as AnthropicLanguageModel from "@verbatim/planner/AnthropicLanguageModel"
import { packagedPromptDirectory, PromptRegistry } from "@verbatim/planner/PromptRegistry"
import { Tokenizer } from "@verbatim/planner/Tokenizer"
import { EventStore } from "@verbatim/projections/EventStore"
import type * as Store from "@verbatim/projections/Store"
import { sessionAccounting } from "@verbatim/projections/Queries/Accounting"
import { Database, FakeAnthropic } from "@verbatim/testkit"
import { Clock, DateTime, Duration, Effect, Layer, Option, Redacted } from "effect"
import { IdGenerator } from "../src/IdGenerator.js"
import * as Ingest from "../src/Inbox/Ingest.js"
import { PlanJob } from "../src/Planning/PlanJob.js"
import { PlanningConfig } from "@verbatim/planner/Planning"
import { PlanningHold } from "../src/Planning/PlanningHold.js"
import { PlanTrigger } from "../src/Planning/PlanTrigger.js"
import { sessionStream } from "@verbatim/domain/Streams"
import { TimeZones } from "../src/TimeZones.js"

const model = Layer.unwrapEffect(
  Effect.map(FakeAnthropic.FakeAnthropic, (fake) =>
    AnthropicLanguageModel.layer({
      apiKey: Redacted.make("sk-test"),
      model: "claude-test",
      baseUrl: Option.some(fake.baseUrl),
      timeout: Duration.seconds(1)
    }))
)

const planning = Layer.succeed(PlanningConfig, {
  limits: {
    contextWindow: 200_000,
    maxTokens: 1_000,
    truncatedMaxTokens: 2_000,
    requestOverhead: 100,
    contactReserve: 1_000,
    maxContacts: 50,
    timeout: Duration.millis(500)
  },
  retry: { maxAttempts: 3, baseDelay: Duration.millis(1), maxDelay: Duration.millis(5) },
  mediaWait: Duration.seconds(120)
})

/**
 * A fresh store (SQLite unless given), fake model server, plan job and plan trigger per test;
 * `wrap` changes the store the jobs use (a fault on some appends, say).
 */
export const planJobLayer = (
  database: Layer.Layer<Store.Services, unknown> = Database.sqlite(),
  wrap: (store: EventStore["Type"]) => EventStore["Type"] = (store) => store
) =>
  PlanTrigger.layer.pipe(
    Layer.provideMerge(PlanJob.layer),
    Layer.provideMerge(Layer.mergeAll(
      model,
      PromptRegistry.layer({ directory: packagedPromptDirectory, defaultVersion: "v1" }),
      Tokenizer.layer,
      planning,
      IdGenerator.layerTest,
      PlanningHold.layer,
      TimeZones.layerZone("UTC")
    )),
    Layer.provideMerge(FakeAnthropic.FakeAnthropic.layer),
    Layer.provideMerge(Layer.effect(EventStore, Effect.map(EventStore, wrap))),
    Layer.provideMerge(database)
  )

/** A fresh SQLite store, fake model server and plan job per test. */
export const PlanJobTest = planJobLayer()

/**
 * A clock that reads `at` throughout but sleeps for real: model timeouts and retry waits pass as
 * they do in production, while every time recorded (a closing, a model call's duration) is exact.
 */
export const stoppedClock = (at: number): Clock.Clock => {
  const live = Clock.make()
  const nanos = BigInt(at) * 1_000_000n
  return {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => at,
    unsafeCurrentTimeNanos: () => nanos,
    currentTimeMillis: Effect.succeed(at),
    currentTimeNanos: Effect.succeed(nanos),
    sleep: (duration) => live.sleep(duration)
  }
}

/** Run a test over a fresh plan job harness, the clock stopped at 0. */
export const inPlanJob = <A, E>(test: Effect.Effect<A, E, Layer.Layer.Success<typeof PlanJobTest>>) =>
  test.pipe(Effect.provide(PlanJobTest), Effect.withClock(stoppedClock(0)))

/** A text message from the test sender, Telegram message id `100000001:<n>`. */
export const text = (n: number, body: string): NewMessage => ({
  _tag: "NewMessage",
  provider: "telegram",
  providerMessageId: `100000001:${n}`,
  senderId: "100000001",
  chatId: "100000001",
  senderName: "Alice Sender",
  text: body,
  kind: "text",
  forwardedFrom: null,
  replyTo: null,
  attachments: [], links: [], mediaGroup: null,
  sentAt: DateTime.unsafeMake(0)
})

/** Capture the messages into one session and close it, returning its id. */
export const closedSession = (...messages: ReadonlyArray<NewMessage>) =>
  Effect.gen(function*() {
    let sessionId: SessionId | null = null
    for (const message of messages) {
      const captured = yield* Ingest.capture(message)
      if (captured._tag === "Recorded") sessionId = captured.sessionId
    }
    yield* Ingest.closeSession(sessionId!, "command")
    return sessionId!
  })

/** The session stream's event tags after the opening, messages and close. */
export const eventsAfterClose = (sessionId: SessionId) =>
  Effect.flatMap(EventStore, (store) =>
    Effect.map(store.readStream(sessionStream(sessionId)), (events) => {
      const closed = events.findIndex((e) => e.event._tag === "SessionClosed")
      return events.slice(closed + 1).map((e) => e.event)
    }))

/** Each message's single disposition, as `seq: Tag`. */
export const dispositions = (sessionId: SessionId) =>
  Effect.map(sessionAccounting(sessionId), (view) =>
    Option.getOrThrow(view).messages.map((m) => `${m.seq}: ${m.disposition._tag}`))
