/**
 * The reply outbox: queued replies are sent through the provider's API and the outcome recorded
 * (`ReplySent`, or `ReplyFailed` to try again later). A provider outage delays replies and never
 * loses them; a lease per reply and a re-read after taking it keep two instances from sending
 * one reply twice. A chat the provider rate-limits with a retry-after is left alone that long.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import type { Button } from "./ProviderClients.js"
import type { ReplyId } from "@verbatim/domain/Ids"
import { EventStore } from "@verbatim/projections/EventStore"
import { Clock, Context, DateTime, Duration, Effect, Layer, Schedule, Schema } from "effect"
import { IdGenerator } from "./IdGenerator.js"
import * as Lease from "./Lease.js"
import { type ProviderError, TelegramClient, WhatsAppClient } from "./ProviderClients.js"
import { replyStream } from "./Streams.js"

interface ReplyRow {
  readonly reply_id: string
  readonly provider: string
  readonly chat: string
  readonly text: string
  readonly buttons: string
  readonly attempts: number | string
}

const decodeButtons = Schema.decodeUnknownSync(
  Schema.parseJson(Schema.Array(Schema.Struct({ label: Schema.String, data: Schema.String })))
)

/** What one pass did. */
export interface OutboxPass {
  readonly sent: number
  readonly failed: number
  readonly held: number
}

export class Outbox extends Context.Tag("@verbatim/server/Outbox")<Outbox, {
  /** Try every queued reply once. */
  readonly drain: Effect.Effect<OutboxPass>
}>() {
  static readonly make = Effect.gen(function*() {
    const sql = yield* SqlClient
    const store = yield* EventStore
    const telegram = yield* TelegramClient
    const whatsApp = yield* WhatsAppClient
    const owner = yield* Effect.flatMap(IdGenerator, (ids) => ids.next("outbox"))
    /** Chats a provider asked us to leave alone (429 with a retry-after), until when (epoch ms). */
    const pausedUntil = new Map<string, number>()
    const chatOf = (row: ReplyRow) => `${row.provider}\u0000${row.chat}`

    const send = (row: ReplyRow, buttons: ReadonlyArray<Button>) =>
      row.provider === "telegram"
        ? telegram.sendMessage(row.chat, row.text, buttons)
        : whatsApp.sendMessage(row.chat, row.text, buttons)

    const deliver = (row: ReplyRow) =>
      Effect.gen(function*() {
        const replyId = row.reply_id as ReplyId
        const stream = replyStream(replyId)
        const history = yield* store.readStream(stream)
        if (history.some((e) => e.event._tag === "ReplySent")) return "sent" as const
        const attempt = Number(row.attempts) + 1
        const outcome = yield* send(row, decodeButtons(row.buttons)).pipe(Effect.either)
        if (outcome._tag === "Right") {
          const sentAt = yield* DateTime.now
          yield* store.append(stream, "any", [
            { _tag: "ReplySent", replyId, providerMessageId: outcome.right.providerMessageId, sentAt }
          ])
          return "sent" as const
        }
        const error: ProviderError = outcome.left
        if (error.reason === "not-configured") return "held" as const
        if (error.retryAfterSeconds !== null) {
          pausedUntil.set(chatOf(row), (yield* Clock.currentTimeMillis) + error.retryAfterSeconds * 1000)
        }
        yield* store.append(stream, "any", [
          { _tag: "ReplyFailed", replyId, attempt, detail: `${error.reason}: ${error.detail}`, final: !error.retryable }
        ])
        return "failed" as const
      })

    const drain = Effect.gen(function*() {
      const rows = yield* sql<ReplyRow>`SELECT reply_id, provider, chat, text, buttons, attempts FROM replies
        WHERE status = 'queued' ORDER BY position LIMIT 100`
      const pass = { sent: 0, failed: 0, held: 0 }
      const now = yield* Clock.currentTimeMillis
      for (const row of rows) {
        const paused = pausedUntil.get(chatOf(row))
        if (paused !== undefined && paused > now) {
          pass.held += 1
          continue
        }
        pausedUntil.delete(chatOf(row))
        const result = yield* Lease.withLease(`reply:${row.reply_id}`, owner, 60_000, deliver(row), "held" as const)
        pass[result] += 1
      }
      return pass as OutboxPass
    }).pipe(
      Effect.tapErrorCause((cause) => Effect.logError("outbox pass failed", cause)),
      Effect.orElseSucceed((): OutboxPass => ({ sent: 0, failed: 0, held: 0 })),
      Effect.withSpan("Outbox.drain"),
      Effect.provideService(SqlClient, sql)
    )
    return Outbox.of({ drain })
  })

  static readonly layer = Layer.effect(Outbox, Outbox.make)
}

/** Drain the outbox every `interval` for as long as the scope lives. */
export const runEvery = (interval: Duration.DurationInput) =>
  Effect.flatMap(Outbox, (outbox) => outbox.drain.pipe(Effect.repeat(Schedule.spaced(interval)), Effect.asVoid))
