/**
 * Pasting a chat on the Capture page: `POST /compose/paste` shows the paste split into messages
 * (`PastedChat.ts` in the domain) without capturing anything; the preview's one button posts the
 * same paste back to `POST /compose/paste/capture`, which reads it again into the same messages and
 * captures them in order as separate messages of the writer's web session, each forwarded from
 * its author. Message n is sent under `<id>.<n>` with the id the preview was rendered with, so the
 * button pressed twice records once. Every message is held to the compose box's limits; one that
 * breaks them keeps the whole paste from being captured, and the page says which.
 */
import { ComposedMessage } from "@verbatim/domain/CaptureApi"
import { parsePastedChat, type PastedMessage } from "@verbatim/domain/Inbound/PastedChat"
import type { UserId } from "@verbatim/domain/Ids"
import { tooLong } from "@verbatim/domain/MessageLimit"
import { Effect, Either, Schema } from "effect"
import { compose } from "../Inbox/Compose.js"
import { IdGenerator } from "../IdGenerator.js"
import { banner } from "./Banner.js"
import { back, postedBy, problemOf } from "./Composing.js"
import { page, respond } from "./Layout.js"
import { pastePage } from "./PastePage.js"

const PreviewForm = Schema.Struct({ csrf: Schema.String, paste: Schema.String })
const CaptureForm = Schema.Struct({ csrf: Schema.String, id: Schema.String, paste: Schema.String })

interface Refusal {
  readonly status: 400 | 413
  readonly reason: string
}

/** Browsers send a text box's line breaks as CRLF; they were typed (and copied) as LF. */
const messagesOf = (paste: string) => parsePastedChat(paste.replace(/\r\n/g, "\n"))

/** The paste's messages as the compose box's, message n under `<id>.<n>`; Left the first problem, said for the page. */
const composedOf = (id: string, messages: ReadonlyArray<PastedMessage>): Either.Either<ReadonlyArray<ComposedMessage>, Refusal> => {
  if (messages.length === 0) return Either.left({ status: 400, reason: "The paste must hold some text." })
  const out: Array<ComposedMessage> = []
  for (const [index, message] of messages.entries()) {
    const overLong = tooLong(message.text)
    if (overLong !== null) {
      return Either.left({ status: 413, reason: `Message ${index + 1} ${overLong}: split it, and paste each part.` })
    }
    const composed = Schema.decodeUnknownEither(ComposedMessage)({ id: `${id}.${index + 1}`, text: message.text, forwardedFrom: message.author })
    if (Either.isLeft(composed)) return Either.left({ status: 400, reason: `Message ${index + 1}: ${problemOf(composed.left)}` })
    out.push(composed.right)
  }
  return Either.right(out)
}

const show = (user: UserId, csrf: string, formId: string, paste: string, refusal: Refusal | null) =>
  Effect.gen(function*() {
    const messages = messagesOf(paste)
    const shell = { title: "Paste a chat", section: "compose" as const, csrf, banner: yield* banner(user) }
    const body = pastePage({ csrf, formId, paste: paste.replace(/\r\n/g, "\n"), messages, problem: refusal?.reason ?? null })
    return yield* respond(page(shell, body), refusal?.status ?? 200)
  })

/** POST /compose/paste: the paste split into messages, with the button that captures them; nothing is captured yet. */
export const preview = Effect.gen(function*() {
  const posted = yield* postedBy(PreviewForm)
  if (Either.isLeft(posted)) return posted.left
  const { csrf, form, user } = posted.right
  const formId = yield* Effect.flatMap(IdGenerator, (ids) => ids.next("m"))
  const refused = composedOf(formId, messagesOf(form.paste))
  return yield* show(user, csrf, formId, form.paste, Either.isLeft(refused) ? refused.left : null)
})

/** POST /compose/paste/capture: the paste's messages captured in order, each its own message. */
export const capture = Effect.gen(function*() {
  const posted = yield* postedBy(CaptureForm)
  if (Either.isLeft(posted)) return posted.left
  const { csrf, form, user } = posted.right
  const messages = composedOf(form.id, messagesOf(form.paste))
  if (Either.isLeft(messages)) return yield* show(user, csrf, form.id, form.paste, messages.left)
  const outcomes = yield* compose(user, messages.right, false)
  return yield* back(outcomes.every((o) => o.outcome === "already-recorded") ? "again" : "pasted")
})
