/**
 * A voice note forgotten while the media worker is downloading it: the download is held at the
 * fake Telegram until the forgetting is done. The bytes that then arrive are refused and not
 * kept, the voice is never transcribed, the session's accounting reads Erased for it, and later
 * passes of the worker never fetch it again.
 */
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import { MessageId } from "@verbatim/domain/Ids"
import { emptyPlan } from "@verbatim/domain/Plan"
import { FakeTranscriber, transcript } from "@verbatim/testkit/FakeTranscriber"
import { spokenOgg } from "@verbatim/testkit/RealMedia"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Duration, Effect, Fiber, TestClock } from "effect"
import { basename, dirname } from "node:path"
import { aliceForgot, forgetOverApi, places } from "../forgetting.js"
import { storeHolds } from "../StoreBytes.js"
import { client } from "../apiClient.js"
import { aliceUpdate, closeIdle, eventLog, filesOf, layer, noteBody, readMedia, telegram, telegramCalls } from "../harness.js"

const sessionId = "telegram:100000001:100000001:1"
const marker = "Zephyrine keeps the spare key under the blue pot"

/** The SQLite file the harness's store is in. */
const databaseFile = Effect.flatMap(SqlClient, (sql) =>
  Effect.map(sql<{ readonly name: string; readonly file: string }>`PRAGMA database_list`, (rows) => rows.find((r) => r.name === "main")!.file))

const voice = (messageId: number, fileId: string) =>
  aliceUpdate(messageId, { voice: { file_id: fileId, file_unique_id: `u-${fileId}`, duration: 3, mime_type: "audio/ogg" } })

describe("forgetting a message while its media is fetched", () => {
  it.effect("the bytes that arrive after are not kept, nothing is transcribed, and nothing is fetched again", () =>
    Effect.gen(function*() {
      // The voice's own bytes, kept to look for them in the store's files.
      const ogg = yield* spokenOgg(marker)
      const files = yield* filesOf("telegram")
      yield* files.add("voice-31", ogg, { mimeType: "audio/ogg" })
      yield* Effect.flatMap(FakeTranscriber, (fake) => fake.answerNext(transcript(marker)))
      const download = yield* files.hold("voice-31")
      expect(yield* telegram(voice(31, "voice-31"))).toEqual({ status: 200, body: "" })
      expect(yield* telegram(aliceUpdate(32, { text: "Bob owes me lunch" }))).toEqual({ status: 200, body: "" })
      const fetching = yield* Effect.fork(readMedia)
      yield* download.requested
      expect(yield* forgetOverApi((f) => f.forgetMessage({ path: { id: MessageId.make("telegram:100000001:31") } }))).toEqual(
        aliceForgot({ messages: 1, sessions: 1, people: 0 })
      )
      yield* download.release
      // The bytes that arrived were refused and dropped: reading them finds none, and that failure is refused too.
      expect(yield* Fiber.join(fetching)).toEqual({ fetched: 0, read: 0, failed: 1, waiting: 0 })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      // Later passes, after any backoff has run out, find nothing owed.
      yield* TestClock.adjust(Duration.hours(1))
      expect(yield* readMedia).toEqual({ fetched: 0, read: 0, failed: 0, waiting: 0 })
      expect((yield* eventLog).filter((e) => e.startsWith(`session-${sessionId}#`)).map((e) => e.split(" ")[1])).toEqual([
        "SessionOpened",
        "MessageReceived",
        "MessageReceived",
        "MessagesErased",
        "SessionClosed",
        "PlanProduced",
        "NoteRecorded",
        "PlanApplied",
        "ReplyQueued"
      ])
      expect(yield* places(sessionId)).toEqual(["1: Erased", "2: InNote"])
      expect(yield* noteBody("note_1")).toEqual("Bob owes me lunch")
      expect(yield* client((c) => c.api.search({ urlParams: { q: "spare key" } }))).toEqual({ hits: [], next: null })
      const sql = yield* SqlClient
      expect(yield* sql`SELECT sha256 FROM media_blobs`).toEqual([])
      expect(yield* sql`SELECT sha256 FROM media_blob_pieces`).toEqual([])
      expect(yield* Effect.flatMap(FakeTranscriber, (fake) => fake.uploads)).toEqual([])
      expect((yield* telegramCalls).filter((c) => c.method === "getFile")).toEqual([{ method: "getFile", body: { file_id: "voice-31" } }])
      expect(yield* files.downloads).toEqual(["voice-31"])
      const file = yield* databaseFile
      // Neither the transcript's words nor the voice's bytes are anywhere in the store's files.
      expect({ words: storeHolds(dirname(file), marker, basename(file)), bytes: storeHolds(dirname(file), ogg.subarray(ogg.length >> 1, (ogg.length >> 1) + 128), basename(file)) })
        .toEqual({ words: [], bytes: [] })
    }).pipe(Effect.provide(layer([planStep({ ...emptyPlan, unattached: [{ sourceItemSeqs: [2], directives: [] }] })]))), 60_000)
})
