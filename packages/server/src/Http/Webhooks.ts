/**
 * The webhook endpoints. Each POST reads the exact bytes (up to the size limit), checks the
 * provider's secret or signature over them, decodes, and answers 200 only once every item's
 * appends have committed. Client faults answer 401/400/413 and append nothing. Each request logs
 * one line (provider, outcome, ms) and each refusal one more (why), never the message text.
 */
import { HttpApiBuilder, type HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Api, BadRequest, type PayloadTooLarge, Unauthorized } from "@verbatim/domain/Api"
import type { Provider } from "@verbatim/domain/Ids"
import { decodeTelegram, decodeWhatsApp, type WebhookDecodeError } from "@verbatim/domain/Inbound/Decode"
import * as Inbound from "@verbatim/domain/Inbound/Inbound"
import { summarise } from "@verbatim/domain/IssueSummary"
import { normaliseTelegram } from "@verbatim/domain/Inbound/normaliseTelegram"
import { normaliseWhatsApp } from "@verbatim/domain/Inbound/normaliseWhatsApp"
import { Clock, DateTime, Effect, Either, Exit } from "effect"
import * as Metrics from "../Metrics.js"
import { ServerConfig } from "../ServerConfig.js"
import { WebhookAuth, type WebhookAuthError } from "../WebhookAuth.js"
import * as Dispatch from "./Dispatch.js"
import * as RawBody from "./RawBody.js"

const utf8 = new TextDecoder("utf-8", { fatal: true })

const textOf = (bytes: Uint8Array): Effect.Effect<string, BadRequest> =>
  Effect.try({ try: () => utf8.decode(bytes), catch: () => new BadRequest({ message: "body is not UTF-8 text" }) })

const outcomeOf = (error: BadRequest | Unauthorized | PayloadTooLarge): Metrics.WebhookOutcome =>
  error._tag === "BadRequest" ? "bad-request" : error._tag === "Unauthorized" ? "unauthorized" : "too-large"

/** One line per refusal: what was refused and why, never the body's text. */
export const refusal = (provider: Provider, reason: string) =>
  Effect.logWarning("refused").pipe(Effect.annotateLogs({ refused: "webhook", provider, reason }))

/** How a webhook proves it is the provider's: a header alone (Telegram) or a signature over the body (WhatsApp). */
type Authenticate =
  | { readonly _tag: "Headers"; readonly check: Effect.Effect<void, WebhookAuthError> }
  | { readonly _tag: "Body"; readonly check: (bytes: Uint8Array) => Effect.Effect<void, WebhookAuthError> }

/** Answer without keep-alive: the unread body is not drained, the socket closes once the answer is sent. */
const closeAfterResponse = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.sync(() => {
    NodeHttpServerRequest.toServerResponse(request).shouldKeepAlive = false
  })

export const layer = HttpApiBuilder.group(Api, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const settings = yield* ServerConfig
    const auth = yield* WebhookAuth
    const context = yield* Effect.context<Effect.Effect.Context<ReturnType<typeof Dispatch.handle>>>()

    const refused = (error: WebhookAuthError) => new Unauthorized({ message: error.message })
    const checked = <A>(check: Effect.Effect<A, WebhookAuthError>) =>
      check.pipe(Effect.tapError((error) => refusal(error.provider, error.message)), Effect.mapError(refused))

    /**
     * Read, authenticate, decode, dispatch: the shared path of both POSTs. A secret in a header is
     * checked before the body is read, and a refusal then closes the connection, so a client
     * without it costs no body buffer.
     */
    const receive = (
      provider: Provider,
      request: HttpServerRequest.HttpServerRequest,
      authenticate: Authenticate,
      decode: (text: string) => Effect.Effect<ReadonlyArray<Inbound.Inbound>, WebhookDecodeError>
    ) =>
      Effect.flatMap(Clock.currentTimeMillis, (started) => {
        const done = (outcome: Metrics.WebhookOutcome) => Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.zipRight(
          Metrics.webhook(provider, outcome),
          (outcome === "accepted" ? Effect.logInfo("webhook") : Effect.logWarning("webhook")).pipe(
            Effect.annotateLogs({ provider, outcome, ms: now - started })
          )
        ))
        return Effect.gen(function*() {
          if (authenticate._tag === "Headers") {
            yield* checked(authenticate.check).pipe(Effect.tapError(() => closeAfterResponse(request)))
          }
          const bytes = yield* RawBody.read(request, settings.maxBodyBytes).pipe(
            Effect.tapError((error) => refusal(provider, `the body is over ${error.limitBytes} bytes`))
          )
          if (authenticate._tag === "Body") yield* checked(authenticate.check(bytes))
          const items = yield* Effect.flatMap(textOf(bytes), decode).pipe(
            // The decoder's message may quote the body, so the log says only what was refused.
            Effect.tapError(() => refusal(provider, "the body is not a valid update")),
            Effect.mapError((error) => new BadRequest({ message: error.message }))
          )
          // Every item is tried before a failure answers, so one that keeps failing (or that cannot be
          // stored exactly and is refused) cannot keep the others of its body from being recorded;
          // a redelivery records nothing twice.
          const refusals: Array<string> = []
          const storable = items.filter((item) => {
            const problem = Inbound.unstorable(item)
            if (problem !== null) refusals.push(problem)
            return problem === null
          })
          yield* Effect.forEach(refusals, (problem) => refusal(provider, problem), { discard: true })
          const outcomes = yield* Effect.forEach(storable, (item) => Effect.exit(Dispatch.handle(item))).pipe(Effect.provide(context))
          const failed = outcomes.find(Exit.isFailure)
          if (failed !== undefined) return yield* Effect.orDie(Effect.failCause(failed.cause))
          if (refusals.length > 0) return yield* new BadRequest({ message: summarise(refusals) })
        }).pipe(
          Effect.tapBoth({ onFailure: (error) => done(outcomeOf(error)), onSuccess: () => done("accepted") }),
          Effect.tapDefect((defect) =>
            Effect.zipRight(
              Effect.logError("webhook failed; the provider will deliver it again").pipe(Effect.annotateLogs({ provider, defect: String(defect) })),
              done("error")
            )
          )
        )
      }).pipe(Effect.withSpan("Webhooks.receive", { attributes: { provider } }))

    return handlers
      .handleRaw("telegram", ({ headers, request }) =>
        receive(
          "telegram",
          request,
          { _tag: "Headers", check: auth.telegram(headers["x-telegram-bot-api-secret-token"]) },
          (text) =>
            Effect.flatMap(DateTime.now, (now) => Either.map(decodeTelegram(text), (update) => normaliseTelegram(update, now)))
        ))
      .handleRaw("whatsapp", ({ headers, request }) =>
        receive(
          "whatsapp",
          request,
          { _tag: "Body", check: (bytes) => auth.whatsApp(bytes, headers["x-hub-signature-256"]) },
          (text) => Either.map(decodeWhatsApp(text), normaliseWhatsApp)
        ))
      .handle("whatsappVerify", ({ urlParams }) =>
        auth.whatsAppChallenge({
          mode: urlParams["hub.mode"],
          verifyToken: urlParams["hub.verify_token"],
          challenge: urlParams["hub.challenge"]
        }).pipe(checked))
  }))
