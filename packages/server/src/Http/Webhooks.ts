/**
 * The webhook endpoints in the `HttpApi` contract. Served, they are taken by the webhook front
 * ahead of the app (`WebhookFront`); these handlers do the same through the same parts, for an
 * app served without the front: the secret or signature checked and the body decoded by `Intake`,
 * the items captured by the capture queue, answered 200 once every item's appends have
 * committed. Client faults answer 401/400/413 and append nothing.
 */
import { HttpApiBuilder, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Api, Unauthorized } from "@verbatim/domain/Api"
import type { ChatProvider } from "@verbatim/domain/Ids"
import { Clock, Effect, Either } from "effect"
import { CaptureQueue } from "../Inbox/CaptureQueue.js"
import { ServerConfig } from "../ServerConfig.js"
import { WebhookAuth, webhookChecks } from "../Providers/WebhookAuth.js"
import { checkHeaders, fromBody, type Refusal, tooLarge } from "../Inbox/Intake.js"
import * as RawBody from "./RawBody.js"
import { type Answer, bodyText, record, refusal, refused } from "../Inbox/WebhookAnswer.js"

const respond = (answer: Answer) =>
  answer.body === null
    ? HttpServerResponse.empty({ status: answer.status })
    : HttpServerResponse.text(bodyText(answer.body), { status: answer.status, contentType: "application/json" })

export const layer = HttpApiBuilder.group(Api, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const settings = yield* ServerConfig
    const auth = yield* WebhookAuth
    const queue = yield* CaptureQueue
    const checks = webhookChecks(settings)

    const receive = (provider: ChatProvider, request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        const path = `/webhooks/${provider}`
        const receivedAt = yield* Clock.currentTimeMillis
        const refuse = (refusal: Refusal) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) => {
            const answer = refused(refusal)
            return Effect.as(record(provider, path, answer, [refusal.reason], now - receivedAt), respond(answer))
          })
        const early = checkHeaders(checks, provider, request.headers)
        if (early !== null) {
          // Answered without keep-alive: the unread body is not drained, the socket closes once the answer is sent.
          NodeHttpServerRequest.toServerResponse(request).shouldKeepAlive = false
          return yield* refuse(early)
        }
        const bytes = yield* Effect.either(RawBody.read(request, settings.maxBodyBytes))
        if (Either.isLeft(bytes)) return yield* refuse(tooLarge(settings.maxBodyBytes))
        const accepted = fromBody(checks, provider, request.headers, bytes.right, receivedAt)
        if (Either.isLeft(accepted)) return yield* refuse(accepted.left)
        return respond(yield* queue.submit({ provider, path, accepted: accepted.right, receivedAt }))
      }).pipe(Effect.withSpan("Webhooks.receive", { attributes: { provider } }))

    return handlers
      .handleRaw("telegram", ({ request }) => receive("telegram", request))
      .handleRaw("whatsapp", ({ request }) => receive("whatsapp", request))
      .handle("whatsappVerify", ({ urlParams }) =>
        auth.whatsAppChallenge({
          mode: urlParams["hub.mode"],
          verifyToken: urlParams["hub.verify_token"],
          challenge: urlParams["hub.challenge"]
        }).pipe(
          Effect.tapError((error) => refusal(error.provider, error.message)),
          Effect.mapError((error) => new Unauthorized({ message: error.message }))
        ))
  }))
