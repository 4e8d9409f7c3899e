/**
 * What the background jobs and the health check read: the outbox (queued replies, and how many a
 * chat was sent lately), the attachments owed work, the sessions owed a plan or a replay, the
 * queues' depths, and whether the database answers. Split from the one read model so a job names
 * only the queue it works.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import type { MessageId, Provider, ReplyId, SessionId, UserId } from "@verbatim/domain/Ids"
import { Context, Effect, Layer } from "effect"
import type { DateTime, Option } from "effect"
import type { StoreError } from "./EventStore.js"
import { runOn } from "./internal/Rows.js"
import * as Queue from "./Queries/Jobs.js"
import type { QueueDepths, QueuedReply } from "./Queries/Jobs.js"
import * as Media from "./Queries/Media.js"
import type { MediaWork } from "./Queries/Media.js"
import * as Replies from "./Queries/Replies.js"
import * as Sessions from "./Queries/Sessions.js"

export type { MediaWork, QueueDepths, QueuedReply }

export class Jobs extends Context.Tag("@verbatim/projections/Jobs")<Jobs, {
  /** Replies waiting to be sent, oldest first, at most `limit`; their buttons decoded. */
  readonly queuedReplies: (limit: number) => Effect.Effect<ReadonlyArray<QueuedReply>, StoreError>
  /** The id of the newest reply in a chat whose id starts with `prefix`, if any. */
  readonly newestReplyId: (provider: Provider, chat: string, prefix: string) => Effect.Effect<Option.Option<ReplyId>, StoreError>
  /** How many replies in a chat whose id starts with `prefix` were queued since `since` (epoch ms), counting up to `limit`. */
  readonly repliesSince: (provider: Provider, chat: string, prefix: string, since: number, limit: number) => Effect.Effect<number, StoreError>
  /** Attachments with work owed: bytes to fetch or text to read, oldest first, at most `limit`. */
  readonly mediaWork: (limit: number) => Effect.Effect<ReadonlyArray<MediaWork>, StoreError>
  /** The attachments of a message, or of every message of a session, whatever their state. */
  readonly mediaOf: (messageOrSession: MessageId | SessionId) => Effect.Effect<ReadonlyArray<MediaWork>, StoreError>
  /** Closed sessions with no applied plan and no recorded failure. */
  readonly unplannedSessions: Effect.Effect<ReadonlyArray<SessionId>, StoreError>
  /** A user's sessions whose last planning attempt failed. */
  readonly failedSessions: (user: UserId) => Effect.Effect<ReadonlyArray<SessionId>, StoreError>
  /** Closed sessions opened at or after `since` (all when none), in the order they were opened. */
  readonly closedSessions: (since: Option.Option<DateTime.Utc>) => Effect.Effect<ReadonlyArray<SessionId>, StoreError>
  /** Messages of closed sessions no plan has filed yet: all of them, or `user`'s. */
  readonly awaitingPlan: (user: UserId | undefined, atMost: number) => Effect.Effect<number, StoreError>
  /** Replies queued, sessions open, and closed sessions without an applied plan. */
  readonly queueDepths: Effect.Effect<QueueDepths, StoreError>
  /** Succeeds when the database answers. */
  readonly ping: Effect.Effect<void, StoreError>
}>() {}

/** Build the queues' reads over the SqlClient in context. */
export const make = Effect.map(SqlClient, (sql) => {
  const run = runOn(sql)
  return Jobs.of({
    queuedReplies: (limit) => run(Queue.queuedReplies(limit)),
    newestReplyId: (provider, chat, prefix) => run(Replies.newestReplyId(provider, chat, prefix)),
    repliesSince: (provider, chat, prefix, since, limit) => run(Replies.repliesSince(provider, chat, prefix, since, limit)),
    mediaWork: (limit) => run(Media.mediaWork(limit)),
    mediaOf: (id) => run(Media.mediaOf(id)),
    unplannedSessions: run(Sessions.unplannedSessions),
    failedSessions: (user) => run(Sessions.failedSessions(user)),
    closedSessions: (since) => run(Queue.closedSessions(since)),
    awaitingPlan: (user, atMost) => run(Queue.awaitingPlan(user, atMost)),
    queueDepths: run(Queue.queueDepths),
    ping: run(Queue.ping)
  })
})

/** The queues' reads on the store's database. */
export const layer: Layer.Layer<Jobs, never, SqlClient> = Layer.effect(Jobs, make)
