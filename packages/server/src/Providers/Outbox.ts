/**
 * The reply outbox: queued replies are sent through the provider's API and the outcome recorded
 * (`ReplySent`, or `ReplyFailed` to try again later), a chat's in the order they were queued and
 * eight chats at once. A provider outage delays replies and never
 * loses them; a lease per reply and a re-read after taking it keep two instances from sending
 * one reply twice. A reply whose send failed waits 5 s, then 10 s, 20 s … at most 10 minutes
 * before the next try (`Backoff`), so an hour's outage records about ten failures a reply, not
 * one a pass; a chat the provider rate-limits with a retry-after is left alone at least that
 * long. While a provider's sends fail the outbox says so (`outages`: `/readyz` and `/metrics`).
 * Each attempt is logged and counted (`verbatim_replies_total` by sent / failed / retried). A
 * reply whose send stopped the process `maxCrashes` times in a row is failed for good, not sent again.
 * Sends keep to each provider's rate limits, overall and per chat (`Pacer`).
 */
import type { EventStore } from "@verbatim/projections/EventStore"
import type { FoldCache } from "@verbatim/projections/FoldCache"
import { ReplyCommand } from "@verbatim/domain/Reply/Decide"
import { Leases, maxCrashes } from "@verbatim/projections/Leases"
import { Wakeups } from "@verbatim/projections/Wakeups"
import { Jobs, type QueuedReply } from "@verbatim/projections/Jobs"
import { Array as Arr, Clock, Context, DateTime, Duration, Effect, Layer } from "effect"
import type { Provider } from "@verbatim/domain/Ids"
import { backoff } from "../Backoff.js"
import * as Metrics from "../Metrics.js"
import { type ProviderError, type Sent, TelegramClient, WhatsAppClient } from "./ProviderClients.js"
import { Pacer } from "./Pacer.js"
import { sendersOf } from "./Senders.js"
import * as Replies from "../Replies.js"
import { isChatProvider } from "@verbatim/domain/Inbound/Providers"

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

/** Chats sent to at once (each chat's replies one after another). */
const chatsAtOnce = 8

/** What one pass did. */
export interface OutboxPass {
  readonly sent: number
  readonly failed: number
  readonly held: number
}

/** A provider whose sends have failed since `since` (epoch ms), none succeeding since, and why the last one failed. */
export interface Outage {
  readonly provider: Provider
  readonly since: number
  readonly reason: string
}

export class Outbox extends Context.Tag("@verbatim/server/Outbox")<Outbox, {
  /** Try every queued reply that is due once. */
  readonly drain: Effect.Effect<OutboxPass>
  /** The providers failing now, as this instance has seen. */
  readonly outages: Effect.Effect<ReadonlyArray<Outage>>
}>() {
  static readonly make = Effect.gen(function*() {
    const stored = yield* Effect.context<EventStore | FoldCache>()
    const read = yield* Jobs
    const leases = yield* Leases
    const telegram = yield* TelegramClient
    const whatsApp = yield* WhatsAppClient
    const pacer = yield* Pacer
    /** Chats a provider asked us to leave alone (429 with a retry-after), until when (epoch ms). */
    const pausedUntil = new Map<string, number>()
    /** Replies whose last send failed, and when each is due again (epoch ms); a restart tries each once more at once. */
    const dueAt = new Map<string, number>()
    const outages = new Map<Provider, Outage>()
    const chatOf = (row: QueuedReply) => `${row.provider}\u0000${row.chat}`

    // A reply to the web pages is delivered by being recorded: the page shows it from the read model.
    const senders = sendersOf(telegram, whatsApp)
    const send = (row: QueuedReply): Effect.Effect<Sent, ProviderError> =>
      isChatProvider(row.provider)
        ? senders[row.provider](row.chat, row.text, row.buttons, row.template ?? undefined)
        : Effect.succeed({ providerMessageId: `page:${row.replyId}` })

    /** The sends before this one died with the process `maxCrashes` times: failed for good, and logged as such. */
    const parkCrashing = (row: QueuedReply, attempt: number, lapses: number) =>
      Effect.gen(function*() {
        const detail = `sending it stopped the process ${lapses} times in a row`
        yield* Replies.recordFailed(ReplyCommand.RecordFailed({ failed: { replyId: row.replyId, attempt, detail, final: true } }))
        yield* Metrics.parked("reply")
        yield* reported(row, "failed", attempt, detail).pipe(Effect.annotateLogs({ job: "reply", crashes: lapses }))
        return "failed" as const
      })

    const deliver = (row: QueuedReply, lapses: number) =>
      Effect.gen(function*() {
        const replyId = row.replyId
        if (yield* Replies.isSent(replyId)) return "sent" as const
        const attempt = row.attempts + 1
        if (lapses >= maxCrashes) return yield* parkCrashing(row, attempt, lapses)
        const leaving = yield* Clock.currentTimeMillis
        const outcome = yield* send(row).pipe(Effect.either)
        if (outcome._tag === "Right") {
          const sentAt = yield* DateTime.now
          yield* Replies.recordSent(ReplyCommand.RecordSent({ sent: { replyId, providerMessageId: outcome.right.providerMessageId, sentAt } }))
          yield* Metrics.replySendWindow(Duration.millis((yield* Clock.currentTimeMillis) - leaving))
          dueAt.delete(replyId)
          outages.delete(row.provider)
          yield* reported(row, "sent", attempt)
          return "sent" as const
        }
        const error: ProviderError = outcome.left
        if (error.reason === "not-configured") return "held" as const
        const now = yield* Clock.currentTimeMillis
        const retryAfter = error.retryAfterSeconds === null ? 0 : error.retryAfterSeconds * 1000
        if (error.retryAfterSeconds !== null) pausedUntil.set(chatOf(row), now + retryAfter)
        if (error.retryable) {
          dueAt.set(replyId, now + Math.max(Duration.toMillis(backoff(attempt)), retryAfter))
          outages.set(row.provider, { provider: row.provider, since: outages.get(row.provider)?.since ?? now, reason: `${error.reason}: ${error.detail}` })
        } else {
          dueAt.delete(replyId)
        }
        yield* Replies.recordFailed(
          ReplyCommand.RecordFailed({ failed: { replyId, attempt, detail: `${error.reason}: ${error.detail}`, final: !error.retryable } })
        )
        yield* reported(row, error.retryable ? "retried" : "failed", attempt, error.reason)
        return "failed" as const
      })

    const drain = Effect.gen(function*() {
      const rows = yield* read.queuedReplies(passSize)
      const pass = { sent: 0, failed: 0, held: 0 }
      const now = yield* Clock.currentTimeMillis
      const one = (row: QueuedReply) =>
        Effect.gen(function*() {
          const paused = pausedUntil.get(chatOf(row))
          if ((paused !== undefined && paused > now) || (dueAt.get(row.replyId) ?? 0) > now) {
            pass.held += 1
            return
          }
          pausedUntil.delete(chatOf(row))
          yield* pacer.slot(row.provider, row.chat)
          const result = yield* leases.withLeaseLapses(`reply:${row.replyId}`, (lapses) => Effect.provide(deliver(row, lapses), stored), "held" as const)
          pass[result] += 1
        })
      // A chat's replies in the order they were queued; different chats' at once.
      const byChat = Object.values(Arr.groupBy(rows, chatOf))
      yield* Effect.forEach(byChat, (chat) => Effect.forEach(chat, one, { discard: true }), { concurrency: chatsAtOnce, discard: true })
      return pass as OutboxPass
    }).pipe(
      Effect.tapErrorCause((cause) => Effect.logError("outbox pass failed", cause)),
      Effect.orElseSucceed((): OutboxPass => ({ sent: 0, failed: 0, held: 0 })),
      Effect.withSpan("Outbox.drain")
    )
    return Outbox.of({ drain, outages: Effect.sync(() => [...outages.values()]) })
  })

  /** Sends paced to the providers' limits (unless `VERBATIM_PACE_REPLIES=false`). */
  static readonly layer = Layer.effect(Outbox, Outbox.make).pipe(Layer.provide(Pacer.layerConfig))

  /** Sends paced by `pacer` (unpaced where a test drives the outbox under a test clock). */
  static readonly layerWith = (pacer: Layer.Layer<Pacer>) => Layer.effect(Outbox, Outbox.make).pipe(Layer.provide(pacer))
}

/**
 * Drain the outbox whenever a reply is queued (here or, on PostgreSQL, on another instance), at
 * once again after a pass that sent a full page (more are waiting: a burst of reminders), and
 * every `interval` besides, for as long as the scope lives.
 */
export const runEvery = (interval: Duration.DurationInput) =>
  Effect.flatMap(Effect.zip(Outbox, Wakeups), ([outbox, wakeups]) =>
    wakeups.loop(["ReplyQueued"], (pass: OutboxPass) => (pass.sent + pass.failed + pass.held >= passSize && pass.sent > 0 ? Duration.zero : interval), outbox.drain))
