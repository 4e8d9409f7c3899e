/**
 * Media and reply jobs that keep stopping the process are parked, as planning is
 * (`PlanCrashes.test.ts`): each works under a lease, a run that died leaves its lease to lapse,
 * and after the third such run the attachment is filed unread (its caption kept) or the reply
 * failed for good, the log and `verbatim_jobs_parked_total` naming the job. Other work goes on.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan, type Plan } from "@verbatim/domain/Plan"
import { maxCrashes, take } from "@verbatim/projections/Leases"
import { EventStore } from "@verbatim/projections/EventStore"
import { Jobs } from "@verbatim/projections/Jobs"
import { ReplyId } from "@verbatim/domain/Ids"
import { replyStream } from "@verbatim/domain/Streams"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { aliceUpdate, closeIdle, drain, eventLog, Harness, imageShowing, layer, noteBody, readMedia, telegram, telegramCalls } from "./harness.js"

const mine = (...seqs: ReadonlyArray<number>): Plan => ({ ...emptyPlan, unattached: [{ sourceItemSeqs: seqs, directives: [] }] })

/** `maxCrashes` holders in a row took the lease and died holding it. */
const diedHolding = (key: string) =>
  Effect.forEach(Array.from({ length: maxCrashes }, (_, i) => `dead:${i}:0000`), (owner) => take(key, owner, -1), { discard: true })

const parkedCount = (job: string) =>
  Effect.flatMap(Harness, (h) =>
    Effect.map(h.request("GET", "/metrics"), (r) => new RegExp(`^verbatim_jobs_parked_total\\{job="${job}"\\} (\\d+)$`, "m").exec(r.body)?.[1]))

const photo = (messageId: number, fileId: string, caption: string) =>
  aliceUpdate(messageId, { photo: [{ file_id: fileId, file_unique_id: `u-${fileId}`, width: 900, height: 300, file_size: 20000 }], caption })

const sendMessages = Effect.map(telegramCalls, (calls) => calls.filter((c) => c.method === "sendMessage").map((c) => (c.body as { text: string }).text))

describe("jobs that keep stopping the process", () => {
  it.effect("an attachment whose reading died three times is filed unread with its caption, and left alone after", () =>
    Effect.gen(function*() {
      yield* imageShowing("telegram", "poison", "never read")
      expect(yield* telegram(photo(1, "poison", "The lease from Ana"))).toEqual({ status: 200, body: "" })
      const [row] = yield* Effect.flatMap(Jobs, (read) => read.mediaWork(10))
      yield* diedHolding(`media:${row!.messageId}:${row!.ordinal}`)
      expect(yield* readMedia).toEqual({ fetched: 0, read: 0, failed: 1, waiting: 0 })
      // Parked for good: a later pass has nothing to do for it.
      expect(yield* readMedia).toEqual({ fetched: 0, read: 0, failed: 0, waiting: 0 })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* noteBody("note_1")).toBe("The lease from Ana\n[photo, not read: working it stopped the process 3 times in a row]")
      expect(yield* parkedCount("media")).toBe("1")
    }).pipe(Effect.provide(layer([planStep(mine(1))]))))

  it.effect("a reply whose send died three times is failed for good and not sent again; the next reply goes out", () =>
    Effect.gen(function*() {
      expect(yield* telegram(aliceUpdate(1, { text: "Ana loves jazz" }))).toEqual({ status: 200, body: "" })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      yield* diedHolding("reply:reply_1")
      expect(yield* drain).toEqual({ sent: 0, failed: 1, held: 0 })
      expect(yield* drain).toEqual({ sent: 0, failed: 0, held: 0 })
      expect(yield* sendMessages).toEqual([])
      expect((yield* eventLog).filter((line) => line.startsWith("reply-"))).toEqual(["reply-reply_1#1 ReplyFailed"])
      const [failed] = yield* Effect.flatMap(EventStore, (store) => store.readStream(replyStream(ReplyId.make("reply_1"))))
      expect(failed?.event).toEqual({ _tag: "ReplyFailed", replyId: "reply_1", attempt: 1, detail: "sending it stopped the process 3 times in a row", final: true })
      expect(yield* parkedCount("reply")).toBe("1")

      expect(yield* telegram(aliceUpdate(2, { text: "/done" }))).toEqual({ status: 200, body: "" })
      expect(yield* drain).toEqual({ sent: 1, failed: 0, held: 0 })
      expect(yield* sendMessages).toEqual(["Nothing to file: send me something first."])
      // Only the reply that went out has a send window measured.
      const metrics = yield* Effect.flatMap(Harness, (h) => h.request("GET", "/metrics"))
      expect(/^verbatim_reply_send_window_seconds_count (\d+)$/m.exec(metrics.body)?.[1]).toBe("1")
    }).pipe(Effect.provide(layer([planStep(mine(1))]))))
})
