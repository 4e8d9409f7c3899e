/**
 * Which reader an attachment goes to: speech (voice notes, audio, videos, video notes) to the
 * transcriber, through `Speech` for what must first lose its picture or be cut; images to the
 * image reader; documents to the document reader, which hands on what turns out to be a picture
 * or a recording. The outcome is the `Read` the session's decider records.
 */
import { kindName, readerOf } from "@verbatim/domain/Media"
import { MediaOutcome } from "@verbatim/domain/Session/Commands"
import type { Bytes } from "@verbatim/projections/Blobs"
import type { StoreError } from "@verbatim/projections/EventStore"
import type { MediaWork } from "@verbatim/projections/Jobs"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import { Context, Effect, Layer, Option } from "effect"
import { DocumentReader } from "./Documents.js"
import { ImageReader } from "./ImageReader.js"
import { MediaError } from "./MediaError.js"
import * as Speech from "./Speech.js"
import { Transcriber, uploadName } from "./Transcriber.js"

export class Readers extends Context.Tag("@verbatim/server/Readers")<Readers, {
  /** The text of an attachment's stored bytes, by the reader its kind and bytes call for. */
  readonly read: (row: MediaWork, bytes: Bytes) => Effect.Effect<MediaOutcome, MediaError | StoreError>
}>() {
  static readonly make = Effect.gen(function*() {
    const model = yield* SessionLookups
    const transcriber = yield* Transcriber
    const imageReader = yield* ImageReader
    const documents = yield* DocumentReader

    const read = (row: MediaWork, bytes: Bytes) =>
      Effect.gen(function*() {
        const reader = readerOf(row.kind)
        if (reader === null) return yield* new MediaError({ stage: "transcribe", permanent: true, reason: "no reader takes this kind" })
        const mimeType = bytes.mimeType ?? row.mimeType
        // The user's contacts, so that the transcriber spells them right.
        const names = reader === "image" ? [] : (yield* model.knownPeople(row.sender)).map((p) => p.name)
        const hearing = { transcriber, model: Option.getOrElse(transcriber.model, () => "none"), names, what: kindName(row.kind) }
        const upload = { fileName: uploadName(row.fileName, mimeType, row.kind), mimeType }
        const hear = (recording: Bytes, direct: boolean) => Speech.hear(hearing, recording, upload, direct, transcriber.maxUpload)
        const { source, ...text } = yield* (reader === "speech"
          ? Effect.map(hear(bytes, row.kind === "voice" || row.kind === "audio"), (r) => ({ ...r, source: "speech" as const }))
          : reader === "image"
          ? Effect.map(imageReader.read(bytes), (r) => ({ ...r, source: "image" as const }))
          : documents.read(bytes, { fileName: row.fileName, mimeType }, { look: imageReader.read, hear: (recording) => hear(recording, true) }))
        return MediaOutcome.Read({ source, ...text })
      })

    return Readers.of({ read })
  })

  static readonly layer = Layer.effect(Readers, Readers.make)
}
