/**
 * The media worker: after the webhook has answered, each attachment's bytes are fetched once and
 * stored by sha256, then read by the reader its kind calls for (`Readers`). Every
 * outcome goes through the session's decider as a `Media` command, so it is an event like any
 * other. A lease per attachment keeps two instances from fetching one file twice; the stored
 * bytes mean a crash between the download and the reading resumes at the reading. A failure that
 * may pass is tried again after 5 s, 10 s, 20 s …; after `maxAttempts`, or at once when it cannot
 * pass, it is recorded as final and the message is planned as what it is. Work on an attachment
 * that stopped the process `maxCrashes` times in a row (the lease says so) is recorded as a final
 * failure instead of being tried again, so one poisonous file cannot keep the service down.
 */
import type { Rejected } from "@verbatim/domain/Session/Commands"
import { Command, MediaOutcome } from "@verbatim/domain/Session/Commands"
import { readerOf } from "@verbatim/domain/Media"
import type { MessageId, SessionId } from "@verbatim/domain/Ids"
import { SqlClient } from "@effect/sql/SqlClient"
import * as Scrub from "@verbatim/projections/Scrub"
import { Blobs } from "@verbatim/projections/Blobs"
import { EventStore } from "@verbatim/projections/EventStore"
import { FoldCache } from "@verbatim/projections/FoldCache"
import { Leases, maxCrashes } from "@verbatim/projections/Leases"
import { Wakeups } from "@verbatim/projections/Wakeups"
import { Jobs, type MediaWork } from "@verbatim/projections/Jobs"
import { Array as Arr, Clock, Context, DateTime, Duration, Effect, Layer, Option } from "effect"
import { backoff } from "../Backoff.js"
import * as Metrics from "../Metrics.js"
import { execute } from "../Sessions.js"
import { MediaError } from "./MediaError.js"
import { MediaSource } from "./MediaSource.js"
import { Readers } from "./Readers.js"

/** Attempts at one stage before a failure that may pass is recorded as final. */
export const maxAttempts = 5


/** Whether an attachment still needs work: no final failure, and no bytes, or no text when a reader takes its kind. */
export const owed = (row: MediaWork): boolean =>
  !row.failurePermanent && (row.sha256 === null || (row.derivedModel === null && readerOf(row.kind) !== null))

/** Attachments one pass takes at most, and works at once. */
const passSize = 50
const concurrency = 4

/** What one pass did with each attachment it looked at. */
export interface MediaPass {
  /** Bytes stored. */
  readonly fetched: number
  /** Text recorded. */
  readonly read: number
  /** Failures recorded (final or to be tried again). */
  readonly failed: number
  /** Left for later: backing off after a failure, or another instance holds it. */
  readonly waiting: number
}

type Step = "fetched" | "read" | "failed" | "waiting"

export class MediaWorker extends Context.Tag("@verbatim/server/MediaWorker")<MediaWorker, {
  /** Work every attachment owed a fetch or a reading once (those backing off excepted). */
  readonly drain: Effect.Effect<MediaPass>
  /**
   * Read a message's attachments (or every attachment of a session) again, with the readers as
   * configured now: a different model's text is a new `MediaTranscribed`, so replay can compare.
   */
  readonly reread: (messageOrSession: MessageId | SessionId) => Effect.Effect<MediaPass>
}>() {
  static readonly make = Effect.gen(function*() {
    const read = yield* Jobs
    const store = yield* EventStore
    const folds = yield* FoldCache
    const leases = yield* Leases
    const blobs = yield* Blobs
    const sql = yield* SqlClient
    const source = yield* MediaSource
    const readers = yield* Readers

    /** Record an outcome through the session's decider; one already recorded is not an error. */
    const record = (row: MediaWork, outcome: MediaOutcome) =>
      execute(row.sessionId, () =>
        Effect.map(DateTime.now, (now) => Command.Media({ messageId: row.messageId, attachment: row.ordinal, outcome, now }))).pipe(
          Effect.asVoid,
          Effect.provideService(EventStore, store),
          Effect.provideService(FoldCache, folds),
          Effect.catchTag("Rejected", (rejected: Rejected) =>
            rejected.reason === "already-recorded"
              ? Effect.void
              : Effect.logWarning("media outcome refused").pipe(Effect.annotateLogs({ messageId: row.messageId, reason: rejected.reason })))
        )

    const failed = (row: MediaWork, error: MediaError) => {
      const attempt = row.failureStage === error.stage ? row.attempts + 1 : 1
      const final = error.permanent || attempt >= maxAttempts
      const reason = final && !error.permanent ? `${error.reason} (gave up after ${attempt} attempts)` : error.reason
      return Effect.zipRight(
        record(row, MediaOutcome.Failed({ stage: error.stage, permanent: final, reason })),
        Effect.zipRight(
          Metrics.mediaAttempt(error.stage, final ? "failed" : "retried"),
          Effect.logWarning("media").pipe(Effect.annotateLogs({ messageId: row.messageId, attachment: row.ordinal, stage: error.stage, final, reason }))
        )
      ).pipe(Effect.as<Step>("failed"))
    }

    const fetch = (row: MediaWork) =>
      Effect.gen(function*() {
        const bytes = yield* source.fetch(row)
        const stored = yield* blobs.put(bytes)
        yield* record(row, MediaOutcome.Fetched({ sha256: stored.sha256, size: stored.size, mimeType: bytes.mimeType }))
        // The message was forgotten while its bytes were fetched: they were refused, and are not kept,
        // nor left in a freed page or a log frame of the store's files.
        const dropped = yield* Scrub.dropBlobs([stored.sha256]).pipe(Effect.provideService(SqlClient, sql), Effect.orDie)
        if (dropped > 0) yield* Scrub.compact.pipe(Effect.provideService(SqlClient, sql), Effect.orDie)
        yield* Metrics.mediaAttempt("fetch", "done")
        return { ...row, sha256: stored.sha256, failureStage: null, attempts: 0 } satisfies MediaWork
      })

    const readText = (row: MediaWork, sha256: string) =>
      Effect.gen(function*() {
        const bytes = yield* blobs.get(sha256)
        if (Option.isNone(bytes)) return yield* new MediaError({ stage: "fetch", permanent: false, reason: "the stored bytes are missing" })
        yield* record(row, yield* readers.read(row, bytes.value))
        yield* Metrics.mediaAttempt("transcribe", "done")
        return "read" as Step
      })

    /** Fetch when there are no bytes yet, then read when a reader takes the kind. */
    const work = (row: MediaWork) =>
      Effect.gen(function*() {
        const fetched = row.sha256 === null ? yield* fetch(row) : row
        if (fetched.sha256 === null || readerOf(row.kind) === null) return "fetched" as Step
        return yield* readText(fetched, fetched.sha256)
      }).pipe(
        Effect.catchTag("MediaError", (error) => failed(row, error)),
        Effect.withSpan("MediaWorker.work", { attributes: { messageId: row.messageId, attachment: row.ordinal, kind: row.kind } })
      )

    /** The runs before this one died with the process `maxCrashes` times: a final failure, and no more tries. */
    const parkCrashing = (row: MediaWork, lapses: number) =>
      Effect.zipRight(
        Effect.zipRight(
          Metrics.parked("media"),
          Effect.logError("working this attachment stopped the process again and again: it is filed unread").pipe(
            Effect.annotateLogs({ job: "media", messageId: row.messageId, attachment: row.ordinal, crashes: lapses })
          )
        ),
        failed(row, new MediaError({ stage: row.sha256 === null ? "fetch" : "transcribe", permanent: true, reason: `working it stopped the process ${lapses} times in a row` }))
      )

    /** Take the attachment's lease and look again: another instance may have done the work since the list was read. */
    const claimed = (row: MediaWork, force: boolean) =>
      leases.withLeaseLapses(
        `media:${row.messageId}:${row.ordinal}`,
        (lapses) =>
          Effect.gen(function*() {
            const current = (yield* read.mediaOf(row.messageId)).find((r) => r.ordinal === row.ordinal)
            if (current === undefined || (!force && !owed(current))) return "waiting" as Step
            return yield* (lapses >= maxCrashes && !force ? parkCrashing(current, lapses) : work(current))
          }),
        "waiting" as Step
      )

    const due = (row: MediaWork, now: number) =>
      row.failureStage === null || row.updatedAt === null || Date.parse(row.updatedAt) + Duration.toMillis(backoff(row.attempts)) <= now

    const tally = (steps: ReadonlyArray<Step>): MediaPass => ({
      fetched: steps.filter((s) => s === "fetched").length,
      read: steps.filter((s) => s === "read").length,
      failed: steps.filter((s) => s === "failed").length,
      waiting: steps.filter((s) => s === "waiting").length
    })

    const guarded = (name: string) => <R>(effect: Effect.Effect<MediaPass, unknown, R>) =>
      effect.pipe(
        Effect.tapErrorCause((cause) => Effect.logError(`${name} failed`, cause)),
        Effect.orElseSucceed((): MediaPass => ({ fetched: 0, read: 0, failed: 0, waiting: 0 })),
        Effect.withSpan(`MediaWorker.${name}`)
      )

    const drain = Effect.gen(function*() {
      const rows = yield* read.mediaWork(passSize)
      const now = yield* Clock.currentTimeMillis
      // A few sessions at once, so that one slow transcription does not hold every other session's
      // media behind it; one session's in order, so that its outcomes do not race for its stream.
      const bySession = Object.values(Arr.groupBy(rows, (row) => row.sessionId))
      const steps = yield* Effect.forEach(
        bySession,
        (group) => Effect.forEach(group, (row) => (due(row, now) ? claimed(row, false) : Effect.succeed<Step>("waiting"))),
        { concurrency }
      )
      return tally(steps.flat())
    }).pipe(guarded("drain"))

    const reread = (messageOrSession: MessageId | SessionId) =>
      Effect.gen(function*() {
        const rows = yield* read.mediaOf(messageOrSession)
        return tally(yield* Effect.forEach(rows, (row) => claimed(row, true)))
      }).pipe(guarded("reread"))

    return MediaWorker.of({ drain, reread })
  })

  static readonly layer = Layer.effect(MediaWorker, MediaWorker.make).pipe(Layer.provide(Readers.layer))
}

/** Work the media queue whenever a message with attachments is captured (here or, on PostgreSQL, on another instance), and every `interval` besides. */
export const runEvery = (interval: Duration.DurationInput) =>
  Effect.flatMap(Effect.zip(MediaWorker, Wakeups), ([worker, wakeups]) =>
    wakeups.loop(["MediaOwed"], interval, worker.drain))
