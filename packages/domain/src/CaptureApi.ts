/**
 * `POST /api/messages`: capture without a chat, for scripts and the web pages' compose box. The
 * messages go the webhooks' way as the third provider, `web`; each carries an id its client chose,
 * so sending a message again records nothing more.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authorization, PayloadTooLarge } from "./ApiErrors.js"
import { storable } from "./ApiResponses.js"
import { MessageId, SessionId, UserId } from "./Ids.js"

/** A client's id for a message: what makes a retry record nothing more. */
export const ClientMessageId = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9._~-]{1,100}$/, { message: () => "must be 1 to 100 letters, digits, '.', '_', '~' or '-'" })
)

/** One message as typed or pasted: its text is kept exactly, line breaks and spaces included. */
export const ComposedMessage = Schema.Struct({
  id: ClientMessageId,
  text: Schema.String.pipe(
    Schema.filter((text) => text.trim() !== "" || "must hold some text"),
    storable
  ),
  /** Who wrote it first, when it is a forward. */
  forwardedFrom: Schema.optionalWith(Schema.NullOr(Schema.String.pipe(storable)), { default: () => null, exact: true })
})
export type ComposedMessage = typeof ComposedMessage.Type

export const CapturePayload = Schema.Struct({
  /** Whose messages these are: the operator's own (`web:operator`) when not given. */
  user: Schema.optionalWith(UserId, { exact: true }),
  messages: Schema.Array(ComposedMessage).pipe(
    Schema.minItems(1, { message: () => "must be a list of 1 to 100 messages" }),
    Schema.maxItems(100, { message: () => "must be a list of 1 to 100 messages" })
  ),
  /** Close the session after them, as `/done` would. */
  close: Schema.optionalWith(Schema.Boolean, { default: () => false, exact: true })
}).annotations({ message: () => "must be a JSON object {\"messages\": [{\"id\": …, \"text\": …}], \"close\"?: true}" })
export type CapturePayload = typeof CapturePayload.Type

export const CaptureResult = Schema.Struct({
  messages: Schema.Array(Schema.Struct({
    id: Schema.String,
    messageId: MessageId,
    /** `command`: the text was `/done`, `/help` or `/web`, acted on and not captured. */
    outcome: Schema.Literal("recorded", "already-recorded", "command"),
    sessionId: Schema.NullOr(SessionId)
  }))
})
export type CaptureResult = typeof CaptureResult.Type

export class CaptureGroup extends HttpApiGroup.make("capture")
  .add(
    HttpApiEndpoint.post("messages", "/messages")
      .annotate(OpenApi.Summary, "Capture messages")
      .annotate(
        OpenApi.Description,
        "Messages captured in order into the user's web session, as a chat's would be: planned once the session closes (`close`, `/done`, or idle), their replies shown on the web pages. A message whose `id` was sent before records nothing more (`already-recorded`). `user` must be `web:operator` (the default) or a user on the allow-list. A message's text holds at most 1 MiB of UTF-8: one over it is a 413 naming it, and none of the request's messages is recorded."
      )
      .setPayload(CapturePayload)
      .addSuccess(CaptureResult)
      .addError(PayloadTooLarge)
  )
  .middleware(Authorization)
  .prefix("/api")
{}
