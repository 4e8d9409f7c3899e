/** The read model's queries for the outbox, replay and the metrics scrape, run against every backend. */
import { expect, it } from "@effect/vitest"
import type { Event, ReplyQueued } from "@verbatim/domain/Events"
import { PersonId, ReplyId, SessionId, UserId } from "@verbatim/domain/Ids"
import { SqlClient } from "@effect/sql/SqlClient"
import { EventStore } from "@verbatim/projections/EventStore"
import { Jobs } from "@verbatim/projections/Jobs"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import type { Services } from "@verbatim/projections/Store"
import * as G from "@verbatim/testkit/Given"
import { Effect, Option, TestClock } from "effect"
import { reapply } from "./Reapply.js"
import type { Layer } from "effect"

const buttons = [{ label: "Ana", data: "q:1:0" }, { label: "Keep as my own note", data: "q:1:u" }]
const template = { name: "verbatim_reminder", language: "en", parameters: ["call Ana"] }

/** Register the suite for one backend; each test gets a fresh database. */
export const jobQueriesConformance = (layer: () => Layer.Layer<Services, unknown>) => {
  it.effect("queued replies oldest first with their buttons decoded, sent ones left out, at most the limit", () =>
    Effect.gen(function*() {
      yield* G.given(
        ["reply-r1", [{ ...(G.replyQueued("r1", "Who is this about?") as typeof ReplyQueued.Type), buttons }]],
        ["reply-r2", [G.replyQueued("r2", "Filed."), {
          _tag: "ReplySent",
          replyId: ReplyId.make("r2"),
          providerMessageId: "m-2",
          sentAt: G.at(5)
        }]],
        ["reply-r3", [{ ...(G.replyQueued("r3", "Filed too.") as typeof ReplyQueued.Type), template }]]
      )
      const read = yield* Jobs
      const r1 = { replyId: ReplyId.make("r1"), provider: "telegram", chat: "100000001", text: "Who is this about?", buttons, template: null, attempts: 0 }
      const r3 = { replyId: ReplyId.make("r3"), provider: "telegram", chat: "100000001", text: "Filed too.", buttons: [], template, attempts: 0 }
      expect(yield* read.queuedReplies(100)).toEqual([r1, r3])
      expect(yield* read.queuedReplies(1)).toEqual([r1])
      expect(yield* read.queueDepths).toEqual({ queuedReplies: 2, openSessions: 0, unplannedSessions: 0 })
    }).pipe(Effect.provide(layer())))

  it.effect("replies in a chat by id prefix since a time, dated by their events, counting the newest up to the limit", () =>
    Effect.gen(function*() {
      yield* G.given(["reply-web:1", [G.replyQueued("web:1", "link 1")]], ["reply-web:2", [G.replyQueued("web:2", "link 2")]], ["reply-r1", [G.replyQueued("r1", "Filed.")]])
      yield* TestClock.adjust("2 hours")
      yield* G.given(["reply-web:3", [G.replyQueued("web:3", "link 3")]], ["reply-web-limit:4", [G.replyQueued("web-limit:4", "That is enough.")]])
      const read = yield* Jobs
      const hourAgo = 60 * 60 * 1000
      const counted = (prefix: string, since: number, limit: number) => read.repliesSince("telegram", "100000001", prefix, since, limit)
      expect([
        yield* counted("web:", hourAgo, 10),
        yield* counted("web:", 0, 10),
        yield* counted("web:", 0, 2),
        yield* counted("web-limit:", hourAgo, 1),
        yield* read.repliesSince("whatsapp", "100000001", "web:", 0, 10)
      ]).toEqual([1, 3, 2, 1, 0])
    }).pipe(Effect.provide(layer())))

  it.effect("closed sessions in opening order, open ones left out; depths count open and unplanned sessions", () =>
    Effect.gen(function*() {
      yield* G.given(
        [G.sessionStream("a"), [G.sessionOpened("a"), G.messageReceived("a", 1, "still open")]],
        [G.sessionStream("b"), [G.sessionOpened("b"), G.messageReceived("b", 1, "closed"), G.sessionClosed("b", 1)]],
        [G.sessionStream("c"), [
          G.sessionOpened("c"),
          G.messageReceived("c", 1, "planned"),
          G.sessionClosed("c", 1),
          G.planProduced("c", "plan-c", 1),
          G.planApplied("c", "plan-c")
        ]]
      )
      const read = yield* Jobs
      expect(yield* read.closedSessions(Option.none())).toEqual([SessionId.make("b"), SessionId.make("c")])
      expect(yield* read.closedSessions(Option.some(G.at(0)))).toEqual([SessionId.make("b"), SessionId.make("c")])
      expect(yield* read.closedSessions(Option.some(G.at(1)))).toEqual([])
      expect(yield* read.queueDepths).toEqual({ queuedReplies: 0, openSessions: 1, unplannedSessions: 1 })
      yield* read.ping
    }).pipe(Effect.provide(layer())))

  it.effect("messages awaiting a plan: closed sessions' without an applied plan, everyone's or a user's, counted no further than asked", () =>
    Effect.gen(function*() {
      const bo = UserId.make("telegram:100000002")
      yield* G.given(
        [G.sessionStream("open"), [G.sessionOpened("open"), G.messageReceived("open", 1, "still open")]],
        [G.sessionStream("waits"), [
          G.sessionOpened("waits"),
          G.messageReceived("waits", 1, "one"),
          G.messageReceived("waits", 2, "two"),
          G.sessionClosed("waits", 2)
        ]],
        [G.sessionStream("filed"), [
          G.sessionOpened("filed"),
          G.messageReceived("filed", 1, "planned"),
          G.sessionClosed("filed", 1),
          G.planProduced("filed", "plan-filed", 1),
          G.planApplied("filed", "plan-filed")
        ]],
        [G.sessionStream("bo"), [
          { ...G.sessionOpened("bo"), user: bo } as Event,
          G.messageReceived("bo", 1, "Bo's"),
          G.sessionClosed("bo", 1)
        ]]
      )
      const read = yield* Jobs
      expect([
        yield* read.awaitingPlan(G.user, 100),
        yield* read.awaitingPlan(bo, 100),
        yield* read.awaitingPlan(undefined, 100),
        yield* read.awaitingPlan(undefined, 2),
        yield* read.awaitingPlan(G.user, 1)
      ]).toEqual([2, 1, 3, 2, 1])
    }).pipe(Effect.provide(layer())))

  it.effect("a closed session is owed planning until a plan is applied; a replay's replacing plan owes it again until applied; events applied again count nothing", () =>
    Effect.gen(function*() {
      const read = yield* Jobs
      const store = yield* EventStore
      const owed = () => Effect.all([read.unplannedSessions, Effect.map(read.queueDepths, (d) => d.unplannedSessions)])
      yield* G.given([G.sessionStream("p"), [G.sessionOpened("p"), G.messageReceived("p", 1, "to plan"), G.sessionClosed("p", 1)]])
      expect(yield* owed()).toEqual([[SessionId.make("p")], 1])
      yield* G.given([G.sessionStream("p"), [G.planProduced("p", "plan-p", 1), G.planApplied("p", "plan-p")]])
      expect(yield* owed()).toEqual([[], 0])
      yield* G.given([G.sessionStream("p"), [G.planProduced("p", "plan-p-v2", 1, ["plan-p"])]])
      expect(yield* owed()).toEqual([[SessionId.make("p")], 1])
      yield* G.given([G.sessionStream("p"), [G.planApplied("p", "plan-p-v2")]])
      expect(yield* owed()).toEqual([[], 0])
      yield* reapply(yield* store.readStream(G.sessionStream("p")))
      expect(yield* owed()).toEqual([[], 0])
      const sql = yield* SqlClient
      expect(yield* sql`SELECT applied_plans FROM sessions WHERE session_id = 'p'`).toEqual([{ applied_plans: 1 }])
    }).pipe(Effect.provide(layer())))

  it.effect("a user's contacts recorded before a position, by id", () =>
    Effect.gen(function*() {
      const [, , bo] = yield* G.given(
        ["person-cy", [G.personAdded("person-cy", "Cy")]],
        ["person-ana", [G.personAdded("person-ana", "Ana")]],
        ["person-bo", [G.personAdded("person-bo", "Bo")]]
      )
      const position = bo!._tag === "Appended" ? bo!.positions[0]! : 0
      const read = yield* SessionLookups
      expect(yield* read.contactsBefore(G.user, position)).toEqual([
        { id: PersonId.make("person-ana"), name: "Ana" },
        { id: PersonId.make("person-cy"), name: "Cy" }
      ])
      expect(yield* read.contactsBefore(UserId.make("telegram:someone-else"), position)).toEqual([])
    }).pipe(Effect.provide(layer())))
}
