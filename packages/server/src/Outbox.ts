/**
 * The reply outbox: queued replies are sent through the provider's API and the outcome recorded
 * (`ReplySent`, or `ReplyFailed` to try again later). A provider outage delays replies and never
 * loses them; a lease per reply and a re-read after taking it keep two instances from sending
 * one reply twice. A chat the provider rate-limits with a retry-after is left alone that long.
 * Each attempt is logged and counted (`verbatim_replies_total` by sent / failed / retried).
 */
import { EventStore } from "@verbatim/projections/EventStore"
import { Leases } from "@verbatim/projections/Leases"
import { type QueuedReply, ReadModel } from "@verbatim/projections/ReadModel"
import { Clock, Context, DateTime, Duration, Effect, Layer, Schedule } from "effect"
import * as Metrics from "./Metrics.js"
import { type ProviderError, type Sent, TelegramClient, WhatsAppClient } from "./ProviderClients.js"
import { replyStream } from "@verbatim/domain/Streams"

/** One line and one count per attempt; the reply's text is the user's business, never logged. */
const reported = (row: QueuedReply, outcome: Metrics.ReplyOutcome, attempt: number, reason?: string) =>
  Effect.zipRight(
    Metrics.reply(outcome),
    (outcome === "sent" ? Effect.logInfo("reply") : outcome === "retried" ? Effect.logWarning("reply") : Effect.logError("reply")).pipe(
      Effect.annotateLogs({ replyId: row.replyId, provider: row.provider, outcome, attempt, ...(reason === undefined ? {} : { reason }) })
    )
  )

/** Replies one pass tries at most. */
const passSize = 100

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
    const store = yield* EventStore
    const read = yield* ReadModel
    const leases = yield* Leases
    const telegram = yield* TelegramClient
    const whatsApp = yield* WhatsAppClient
    /** Chats a provider asked us to leave alone (429 with a retry-after), until when (epoch ms). */
    const pausedUntil = new Map<string, number>()
    const chatOf = (row: QueuedReply) => `${row.provider}\u0000${row.chat}`

    // A reply to the web pages is delivered by being recorded: the page shows it from the read model.
    const send = (row: QueuedReply): Effect.Effect<Sent, ProviderError> =>
      row.provider === "telegram"
        ? telegram.sendMessage(row.chat, row.text, row.buttons)
        : row.provider === "whatsapp"
        ? whatsApp.sendMessage(row.chat, row.text, row.buttons)
        : Effect.succeed({ providerMessageId: `page:${row.replyId}` })

    const deliver = (row: QueuedReply) =>
      Effect.gen(function*() {
        const replyId = row.replyId
        const stream = replyStream(replyId)
        const history = yield* store.readStream(stream)
        if (history.some((e) => e.event._tag === "ReplySent")) return "sent" as const
        const attempt = row.attempts + 1
        const outcome = yield* send(row).pipe(Effect.either)
        if (outcome._tag === "Right") {
          const sentAt = yield* DateTime.now
          yield* store.append(stream, "any", [
            { _tag: "ReplySent", replyId, providerMessageId: outcome.right.providerMessageId, sentAt }
          ])
          yield* reported(row, "sent", attempt)
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
        yield* reported(row, error.retryable ? "retried" : "failed", attempt, error.reason)
        return "failed" as const
      })

    const drain = Effect.gen(function*() {
      const rows = yield* read.queuedReplies(passSize)
      const pass = { sent: 0, failed: 0, held: 0 }
      const now = yield* Clock.currentTimeMillis
      for (const row of rows) {
        const paused = pausedUntil.get(chatOf(row))
        if (paused !== undefined && paused > now) {
          pass.held += 1
          continue
        }
        pausedUntil.delete(chatOf(row))
        const result = yield* leases.withLease(`reply:${row.replyId}`, deliver(row), "held" as const)
        pass[result] += 1
      }
      return pass as OutboxPass
    }).pipe(
      Effect.tapErrorCause((cause) => Effect.logError("outbox pass failed", cause)),
      Effect.orElseSucceed((): OutboxPass => ({ sent: 0, failed: 0, held: 0 })),
      Effect.withSpan("Outbox.drain")
    )
    return Outbox.of({ drain })
  })

  static readonly layer = Layer.effect(Outbox, Outbox.make)
}

/** Drain the outbox every `interval` for as long as the scope lives. */
export const runEvery = (interval: Duration.DurationInput) =>
  Effect.flatMap(Outbox, (outbox) => outbox.drain.pipe(Effect.repeat(Schedule.spaced(interval)), Effect.asVoid))
