/** Fetching attachment bytes from the fake Telegram file API and the fake WhatsApp media API, over real HTTP. */
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import type { AttachmentKind } from "@verbatim/domain/Attachment"
import { FakeTelegram } from "@verbatim/testkit/FakeTelegram"
import { FakeWhatsApp } from "@verbatim/testkit/FakeWhatsApp"
import { Effect, Either, Layer } from "effect"
import { createHash } from "node:crypto"
import { MediaError } from "../../src/Media/MediaError.js"
import { type FileReference, matchesDigest, MediaSource } from "../../src/Media/MediaSource.js"
import { ServerConfig } from "../../src/ServerConfig.js"
import { telegramSettings, whatsAppSettings } from "../clientLayers.js"

const source = Layer.unwrapEffect(Effect.gen(function*() {
  const settings = { ...telegramSettings(yield* FakeTelegram), ...whatsAppSettings(yield* FakeWhatsApp) }
  return MediaSource.layer.pipe(Layer.provide(ServerConfig.layerTest(settings)), Layer.provide(FetchHttpClient.layer))
})).pipe(Layer.provideMerge(Layer.mergeAll(FakeTelegram.layer, FakeWhatsApp.layer)))

const unset = MediaSource.layer.pipe(Layer.provide(ServerConfig.layerTest({})), Layer.provide(FetchHttpClient.layer))

const bytesOf = (n: number, seed = 3) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) % 256)

const ref = (provider: FileReference["provider"], kind: AttachmentKind, fileId: string, known: Partial<FileReference> = {}): FileReference => ({
  provider,
  kind,
  fileId,
  uniqueId: null,
  size: null,
  mimeType: null,
  ...known
})

/** The fetched bytes joined, with their type: what the caller would store. */
const fetched = (file: FileReference) =>
  Effect.flatMap(MediaSource, (media) => media.fetch(file)).pipe(
    Effect.map((bytes) => ({ bytes: Buffer.concat(bytes.chunks.map((c) => Buffer.from(c))), size: bytes.size, mimeType: bytes.mimeType })),
    Effect.either
  )

const failed = (permanent: boolean, reason: string) => Either.left(new MediaError({ stage: "fetch", permanent, reason }))

describe("Telegram files", () => {
  it.effect("getFile then the file path: the bytes exactly, one download", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTelegram
      const voice = bytesOf(150_000)
      yield* fake.files.add("voice-1", voice, { mimeType: "audio/ogg" })
      expect(yield* fetched(ref("telegram", "voice", "voice-1", { mimeType: "audio/ogg", size: voice.length }))).toEqual(
        Either.right({ bytes: Buffer.from(voice), size: voice.length, mimeType: "audio/ogg" })
      )
      expect(yield* fake.files.downloads).toEqual(["voice-1"])
      expect((yield* fake.calls).map((call) => [call.method, call.body])).toEqual([["getFile", { file_id: "voice-1" }]])
    }).pipe(Effect.provide(source)))

  it.effect("a file over 20 MB is refused for good, before any download, whether the update or getFile says so", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTelegram
      yield* fake.files.add("big", bytesOf(10), { declaredSize: 25 * 1024 * 1024 })
      const tooLarge = failed(true, "the file is larger than 20 MB, the most that can be fetched")
      expect(yield* fetched(ref("telegram", "video", "big", { size: 25 * 1024 * 1024 }))).toEqual(tooLarge)
      expect(yield* fetched(ref("telegram", "video", "big"))).toEqual(failed(true, "Telegram answered HTTP 400: Bad Request: file is too big"))
      expect(yield* fake.files.downloads).toEqual([])
    }).pipe(Effect.provide(source)))

  it.effect("an unknown file id is permanent; a 500 is worth another try", () =>
    Effect.gen(function*() {
      const fake = yield* FakeTelegram
      expect(yield* fetched(ref("telegram", "voice", "gone"))).toEqual(failed(true, "Telegram answered HTTP 400: Bad Request: invalid file_id"))
      yield* fake.files.add("flaky", bytesOf(10))
      yield* fake.files.failNext("flaky", 1)
      expect(yield* fetched(ref("telegram", "voice", "flaky"))).toEqual(failed(false, "Telegram answered HTTP 500: Internal Server Error"))
      expect(Either.isRight(yield* fetched(ref("telegram", "voice", "flaky")))).toBe(true)
    }).pipe(Effect.provide(source)))
})

describe("WhatsApp media", () => {
  it.effect("an id that is not a Graph object id is refused before any request carries the access token", () =>
    Effect.gen(function*() {
      const fake = yield* FakeWhatsApp
      const refusals = []
      for (const id of ["..", "../me", "123?fields=access_token", "12/34", "", "%2e%2e"]) {
        refusals.push(yield* fetched(ref("whatsapp", "image", id)))
      }
      expect(refusals).toEqual(["..", "../me", "123?fields=access_token", "12/34", "", "%2e%2e"].map((id) =>
        failed(true, `"${id}" is not a WhatsApp media id, so it was not looked up`)))
      expect(yield* fake.received).toEqual([])
    }).pipe(Effect.provide(source)))

  it.effect("the media id gives a URL, downloaded with the bearer token; the sha256 it gave is checked", () =>
    Effect.gen(function*() {
      const fake = yield* FakeWhatsApp
      const image = bytesOf(40_000)
      yield* fake.files.add("media-1", image, { mimeType: "image/jpeg" })
      expect(yield* fetched(ref("whatsapp", "image", "media-1"))).toEqual(
        Either.right({ bytes: Buffer.from(image), size: image.length, mimeType: "image/jpeg" })
      )
      expect(yield* fake.files.downloads).toEqual(["media-1"])
    }).pipe(Effect.provide(source)))

  it.effect("a URL that expired before its download is asked for again, once", () =>
    Effect.gen(function*() {
      const fake = yield* FakeWhatsApp
      yield* fake.files.add("media-2", bytesOf(100), { mimeType: "audio/ogg" })
      yield* fake.expireNextUrl("media-2")
      expect(Either.map(yield* fetched(ref("whatsapp", "voice", "media-2")), (got) => got.size)).toEqual(Either.right(100))
      expect(yield* fake.files.downloads).toEqual(["media-2"])
    }).pipe(Effect.provide(source)))

  it.effect("an expired media id, an image over 5 MB, a sticker that streams past its limit: each refused for good", () =>
    Effect.gen(function*() {
      const fake = yield* FakeWhatsApp
      expect(yield* fetched(ref("whatsapp", "voice", "expired"))).toEqual(
        failed(true, "WhatsApp answered HTTP 400: (#100) Unsupported get request. Object with ID 'expired' does not exist")
      )
      yield* fake.files.add("big-image", bytesOf(10), { declaredSize: 6 * 1024 * 1024 })
      expect(yield* fetched(ref("whatsapp", "image", "big-image"))).toEqual(failed(true, "the file is larger than 5 MB, the most that can be fetched"))
      // The provider understates the size: the download itself stops at the limit.
      yield* fake.files.add("sticker", bytesOf(600 * 1024), { declaredSize: 1000 })
      expect(yield* fetched(ref("whatsapp", "sticker", "sticker"))).toEqual(failed(true, "the file is larger than 0.5 MB, the most that can be fetched"))
    }).pipe(Effect.provide(source)))
})

describe("fetching without credentials", () => {
  it.effect("says which setting is missing, for good", () =>
    Effect.gen(function*() {
      expect(yield* fetched(ref("telegram", "voice", "x"))).toEqual(failed(true, "TELEGRAM_BOT_TOKEN is not set, so the file cannot be fetched"))
      expect(yield* fetched(ref("whatsapp", "voice", "x"))).toEqual(failed(true, "WHATSAPP_ACCESS_TOKEN is not set, so the file cannot be fetched"))
    }).pipe(Effect.provide(unset)))
})

describe("digests", () => {
  it("WhatsApp's sha256 matches as base64 or hex; anything else is not a digest and is not checked", () => {
    const bytes = [Uint8Array.of(1, 2), Uint8Array.of(3)]
    const digest = createHash("sha256").update(Uint8Array.of(1, 2, 3)).digest()
    expect([
      matchesDigest(bytes, digest.toString("base64")),
      matchesDigest(bytes, digest.toString("hex").toUpperCase()),
      matchesDigest(bytes, createHash("sha256").update("other").digest("base64")),
      matchesDigest(bytes, "a1b2c3d4e5f6..."),
      matchesDigest(bytes, null)
    ]).toEqual([true, true, false, true, true])
  })
})
