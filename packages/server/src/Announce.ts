/**
 * The start-up report of `serve`: where it listens, where the data lives, the generated token, what
 * is not configured. Logged like everything else, so with the JSON logger each line is one object.
 */
import { HttpServer } from "@effect/platform"
import type { OperatorReadsMode } from "@verbatim/domain/OperatorReads/Mode"
import * as Store from "@verbatim/projections/Store"
import { Effect, Layer, Option, Redacted } from "effect"
import { resolve } from "node:path"
import { ApiToken } from "./ApiToken.js"
import { ImageReader } from "./Media/ImageReader.js"
import { Transcriber } from "./Media/Transcriber.js"
import { WebLinks } from "./WebLinks.js"
import { modelSource } from "./Planning/Planner.js"
import { notConfigured, ServerConfig } from "./ServerConfig.js"

/** Said at start-up when no model is configured. */
export const noModelNotice = "no model key: messages are captured and held; planning resumes once ANTHROPIC_API_KEY is set"

/** Said at start-up when no transcription server is configured. */
export const noTranscriberNotice =
  "no transcription server: voice notes, audio and videos are fetched, stored and filed as untranscribed; set VERBATIM_TRANSCRIBE_URL to transcribe them"

/** Said at start-up when no image reader is configured. */
export const noImageReaderNotice =
  "no image reader: photos are fetched, stored and filed as unread; install tesseract-ocr to read them here, or set ANTHROPIC_API_KEY"

/** Said at start-up: what the operator reads of other users' data. */
export const operatorReadsNotice: { readonly [M in OperatorReadsMode]: string } = {
  none:
    "operator reads: none (VERBATIM_OPERATOR_READS): the API token and the operator's sign-in see other users' counts and accounting, never their text; set audited to read it with each read recorded where its user sees it, or all",
  audited: "operator reads: audited (VERBATIM_OPERATOR_READS): the operator reads other users' text, and each read is recorded where its user sees it",
  all: "operator reads: all (VERBATIM_OPERATOR_READS): the operator reads every user's text, unrecorded"
}

/** Logs the report once the server listens. */
export const layer = Layer.effectDiscard(
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const settings = yield* ServerConfig
    const token = yield* ApiToken
    const store = yield* Store.config
    const model = yield* modelSource()
    const transcriber = yield* Transcriber
    const imageReader = yield* ImageReader
    const { publicUrl } = yield* WebLinks
    const address = server.address._tag === "TcpAddress" ? `http://${server.address.hostname}:${server.address.port}` : server.address.path
    const data = Option.isSome(store.url) ? "PostgreSQL (VERBATIM_DATABASE_URL)" : resolve(store.dataDir, "verbatim.db")
    const lines = [
      `verbatim listening on ${address}`,
      `data: ${data}`,
      `web pages: ${Option.getOrElse(publicUrl, () => address)}/ (sign in with the API token to read, search, and capture messages at /compose; /web in a chat sends a user their link${
        Option.isNone(publicUrl) ? " once VERBATIM_PUBLIC_URL is set" : ""
      })`,
      operatorReadsNotice[settings.operatorReads],
      ...(token.generated ? [`API token (generated, kept in ${token.path}): ${Redacted.value(token.token)}`] : []),
      ...notConfigured({ ...settings, apiToken: Option.some(token.token) }),
      ...(model._tag === "None" ? [noModelNotice] : []),
      Option.match(transcriber.model, { onNone: () => noTranscriberNotice, onSome: (m) => `voice notes, audio and videos transcribed with ${m} (VERBATIM_TRANSCRIBE_URL)` }),
      Option.match(imageReader.model, { onNone: () => noImageReaderNotice, onSome: (m) => `photos read with ${m}` })
    ]
    yield* Effect.forEach(lines, (line) => Effect.logInfo(line), { discard: true })
  })
)
