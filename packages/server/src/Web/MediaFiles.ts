/**
 * The files people sent, for their own eyes and ears on the note page: a voice note or video to
 * play from the second a phrase came from (`Range` requests, so `<audio src="…#t=12,15">` seeks
 * without JavaScript), a photo beside its text, a PDF page drawn beside the text read from it.
 * Only to the signed-in sender (another user gets a 404, as for a note that is not theirs; no
 * sign-in goes to sign in), and to the operator as `VERBATIM_OPERATOR_READS` says (403 naming it
 * under `none`, each request recorded as a read under `audited`). A type a browser could run (HTML, SVG) is never served as itself: only
 * audio, video, raster images and PDFs go inline, anything else as a download, and every answer
 * is sandboxed.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { byteRange } from "@verbatim/domain/ByteRange"
import { MessageId } from "@verbatim/domain/Ids"
import { Blobs } from "@verbatim/projections/Blobs"
import { Jobs } from "@verbatim/projections/Jobs"
import { Effect, Option, Stream } from "effect"
import { isPdf, pagePng } from "../Media/Documents.js"
import { require } from "../OperatorReads.js"
import { param } from "./Routing.js"
import * as SignIn from "./SignIn.js"

/** Types served inline: what `<audio>`, `<video>` and `<img>` play or show, and PDFs. */
const inline = /^(audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+|image\/(png|jpeg|gif|webp)|application\/pdf)$/

const headers = {
  "content-security-policy": "default-src 'none'; sandbox",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "private, max-age=3600"
}

const notFound = HttpServerResponse.text("Not found", { status: 404, headers })

const refused = (message: string) => HttpServerResponse.text(`Forbidden: ${message}`, { status: 403, headers })

/** The signed-in user's attachment named by the path: where its bytes are stored, their size and type; or why it is not served. */
const ownedFile = Effect.gen(function*() {
  const who = yield* SignIn.current
  if (Option.isNone(who)) return { _tag: "SignIn" } as const
  const messageId = MessageId.make(yield* param("message"))
  const ordinal = Number(yield* param("ordinal"))
  const row = (yield* (yield* Jobs).mediaOf(messageId)).find((r) => r.messageId === messageId && r.ordinal === ordinal)
  if (row === undefined || row.sha256 === null || !SignIn.maySee(who.value.subject, row.sender)) return { _tag: "None" } as const
  const read = yield* Effect.either(require(who.value.subject, { user: row.sender, kind: "media", ids: [`${messageId}/${ordinal}`] }))
  if (read._tag === "Left") return { _tag: "Refused", message: read.left.message } as const
  const stored = yield* (yield* Blobs).about(row.sha256)
  if (Option.isNone(stored)) return { _tag: "None" } as const
  const type = (stored.value.mimeType ?? row.mimeType ?? "").split(";")[0]!.trim().toLowerCase()
  return { _tag: "File", sha256: row.sha256, size: stored.value.size, type } as const
})

const toSignIn = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  HttpServerResponse.redirect(`/signin?next=${encodeURIComponent(request.url)}`, { status: 303 }))

/** `GET /media/:message/:ordinal`: the file, whole or the range asked for. */
export const mediaFile = Effect.gen(function*() {
  const found = yield* ownedFile
  if (found._tag === "SignIn") return yield* toSignIn
  if (found._tag === "None") return yield* notFound
  if (found._tag === "Refused") return yield* refused(found.message)
  const safe = inline.test(found.type)
  const base = {
    ...headers,
    "accept-ranges": "bytes",
    "content-disposition": safe ? "inline" : "attachment"
  }
  const contentType = safe ? found.type : "application/octet-stream"
  const size = found.size
  const range = byteRange((yield* HttpServerRequest.HttpServerRequest).headers["range"], size)
  if (range._tag === "Unsatisfiable") return yield* HttpServerResponse.empty({ status: 416, headers: { ...base, "content-range": `bytes */${size}` } })
  const [start, end] = range._tag === "Whole" ? [0, size] : [range.start, range.end + 1]
  // Read from the store's pieces that hold the range alone (none when the file went meanwhile).
  const bytes = yield* Effect.flatMap(Blobs, (blobs) => blobs.range(found.sha256, start, end))
  if (Option.isNone(bytes)) return yield* notFound
  // The pieces go out as they were read, never joined into one buffer.
  const body = Stream.fromIterable(bytes.value.chunks)
  if (range._tag === "Whole") return HttpServerResponse.stream(body, { contentType, contentLength: size, headers: base })
  return HttpServerResponse.stream(body, {
    status: 206,
    contentType,
    contentLength: end - start,
    headers: { ...base, "content-range": `bytes ${start}-${end - 1}/${size}` }
  })
})

/** `GET /media/:message/:ordinal/pages/:page`: a page of a PDF, drawn as a PNG. */
export const mediaPage = Effect.gen(function*() {
  const found = yield* ownedFile
  if (found._tag === "SignIn") return yield* toSignIn
  if (found._tag === "Refused") return yield* refused(found.message)
  const page = Number(yield* param("page"))
  if (found._tag === "None" || !Number.isInteger(page) || page < 1) return yield* notFound
  const bytes = yield* Effect.flatMap(Blobs, (blobs) => blobs.get(found.sha256))
  if (Option.isNone(bytes) || !isPdf(bytes.value)) return yield* notFound
  const png = yield* Effect.option(pagePng(bytes.value, page))
  return Option.isNone(png) ? yield* notFound : HttpServerResponse.uint8Array(png.value, { contentType: "image/png", headers })
})
