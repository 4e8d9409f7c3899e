/**
 * A fake WhatsApp Cloud API on 127.0.0.1: `POST /v21.0/<phone_number_id>/messages` with a bearer
 * token, answered in the real wire format and checked against the real limits of text, reply
 * buttons and lists, so a client that breaks them fails here as it would against Meta.
 */
import { Context, Effect, Layer, type Scope } from "effect"
import { type FakeFiles, fakeFiles } from "./internal/fakeFiles.js"
import { type JsonRequest, type JsonResponse, startJsonServer } from "./internal/jsonServer.js"

export type WhatsAppFailure = "server" | "rate-limited" | "bad-request"

/** One call the fake received (failed ones included). */
export interface WhatsAppCall {
  readonly phoneNumberId: string
  /** The `Authorization` header as sent. */
  readonly authorization: string | null
  readonly body: unknown
}

const graphError = (status: number, code: number, message: string, details: string): JsonResponse => ({
  status,
  body: {
    error: {
      message: `(#${code}) ${message}`,
      type: "OAuthException",
      code,
      error_data: { messaging_product: "whatsapp", details },
      fbtrace_id: "AFakeTraceId"
    }
  }
})

const failures: Record<WhatsAppFailure, JsonResponse> = {
  server: graphError(500, 131000, "Something went wrong", "Something went wrong"),
  "rate-limited": graphError(429, 130429, "Rate limit hit", "Cloud API message throughput has been reached"),
  "bad-request": graphError(400, 131009, "Parameter value is not valid", "Recipient phone number not valid")
}

const invalid = (details: string) => graphError(400, 131009, "Parameter value is not valid", details)

const length = (value: unknown): number => (typeof value === "string" ? [...value].length : -1)
const within = (value: unknown, max: number) => length(value) >= 1 && length(value) <= max

type Json = Record<string, any>

/** Null when the message respects the Cloud API limits, else what is wrong. */
const violation = (body: Json): string | null => {
  if (body["messaging_product"] !== "whatsapp" || typeof body["to"] !== "string") return "messaging_product and to are required"
  if (body["type"] === "text") return within(body["text"]?.body, 4096) ? null : "text.body must be 1 to 4096 characters"
  if (body["type"] === "template") {
    const template: Json = body["template"] ?? {}
    if (!within(template["name"], 512) || !within(template["language"]?.code, 15)) return "template.name and template.language.code are required"
    const parameters: Array<Json> = (template["components"] ?? []).flatMap((c: Json) => c["parameters"] ?? [])
    const bad = parameters.find((p) => p["type"] !== "text" || !within(p["text"], 1024) || /[\n\t]| {5}/.test(String(p["text"])))
    return bad === undefined ? null : "a template's text parameter holds 1 to 1024 characters, no new lines or tabs, at most 4 spaces in a row"
  }
  if (body["type"] !== "interactive") return `unsupported type ${String(body["type"])}`
  const interactive: Json = body["interactive"] ?? {}
  if (!within(interactive["body"]?.text, 1024)) return "interactive.body.text must be 1 to 1024 characters"
  const action: Json = interactive["action"] ?? {}
  if (interactive["type"] === "button") {
    const buttons: Array<Json> = action["buttons"] ?? []
    if (buttons.length < 1 || buttons.length > 3) return "action.buttons must hold 1 to 3 buttons"
    const bad = buttons.find((b) => b["type"] !== "reply" || !within(b["reply"]?.title, 20) || !within(b["reply"]?.id, 256))
    return bad === undefined ? null : "each button is a reply with a title of 1 to 20 and an id of 1 to 256 characters"
  }
  if (interactive["type"] === "list") {
    const rows: Array<Json> = (action["sections"] ?? []).flatMap((section: Json) => section["rows"] ?? [])
    if (!within(action["button"], 20)) return "action.button must be 1 to 20 characters"
    if (rows.length < 1 || rows.length > 10) return "a list holds 1 to 10 rows"
    const bad = rows.find((r) =>
      !within(r["title"], 24) || !within(r["id"], 200) || (r["description"] !== undefined && !within(r["description"], 72))
    )
    return bad === undefined ? null : "each row has a title of 1 to 24, an id of 1 to 200, a description of up to 72 characters"
  }
  return `unsupported interactive type ${String(interactive["type"])}`
}

/** The access token and phone number id the fake accepts unless told otherwise. */
export const defaultAccessToken = "TEST-ACCESS-TOKEN"
export const defaultPhoneNumberId = "106540352242922"

export class FakeWhatsApp extends Context.Tag("@verbatim/testkit/FakeWhatsApp")<FakeWhatsApp, {
  /** `http://127.0.0.1:<port>/v21.0`, for `WHATSAPP_API_BASE`. */
  readonly baseUrl: string
  readonly accessToken: string
  readonly phoneNumberId: string
  readonly calls: Effect.Effect<ReadonlyArray<WhatsAppCall>>
  /** Every request that reached the fake, any path: `METHOD /path?query`. */
  readonly received: Effect.Effect<ReadonlyArray<string>>
  /** The next `times` calls fail with `failure`, then calls succeed again. */
  readonly failNext: (times: number, failure: WhatsAppFailure) => Effect.Effect<void>
  /**
   * `to` last wrote more than 24 hours ago: a free-form message to them is refused (error 131047,
   * as Meta answers), a template is taken.
   */
  readonly closeWindow: (to: string) => Effect.Effect<void>
  /** `to` wrote again: free-form messages to them are taken. */
  readonly openWindow: (to: string) => Effect.Effect<void>
  /**
   * Media `GET /<media-id>` knows. Its answer's URL lives `urlLifetimeMs` (5 minutes, as Meta's)
   * and is downloaded with the same bearer token.
   */
  readonly files: FakeFiles
  /** The next URL given for `mediaId` has already expired when it is downloaded. */
  readonly expireNextUrl: (mediaId: string) => Effect.Effect<void>
}>() {
  static readonly make = (
    accessToken: string = defaultAccessToken,
    phoneNumberId: string = defaultPhoneNumberId
  ): Effect.Effect<FakeWhatsApp["Type"], never, Scope.Scope> =>
    Effect.gen(function*() {
      const calls: Array<WhatsAppCall> = []
      const received: Array<string> = []
      const closed = new Set<string>()
      const pending: Array<WhatsAppFailure> = []
      let sent = 0
      const files = fakeFiles()
      const expiring = new Set<string>()
      const urlLifetimeMs = 5 * 60 * 1000
      let origin = ""
      const authorized = (request: JsonRequest) => request.headers["authorization"] === `Bearer ${accessToken}`
      const unauthorized = graphError(401, 190, "Invalid OAuth access token - Cannot parse access token", "invalid token")
      const media = (request: JsonRequest, mediaId: string): JsonResponse => {
        if (!authorized(request)) return unauthorized
        const file = files.lookup(mediaId)
        if (file === "fail") return failures.server
        if (file === undefined) {
          return graphError(400, 100, `Unsupported get request. Object with ID '${mediaId}' does not exist`, "unknown media id")
        }
        const expires = expiring.delete(mediaId) ? Date.now() - 1 : Date.now() + urlLifetimeMs
        return {
          status: 200,
          body: {
            messaging_product: "whatsapp",
            url: `${origin}/whatsapp_business/attachments/?mid=${encodeURIComponent(mediaId)}&ext=${expires}&hash=fake`,
            mime_type: file.mimeType,
            sha256: file.sha256,
            file_size: file.declaredSize,
            id: mediaId
          }
        }
      }
      const download = (request: JsonRequest): JsonResponse => {
        if (!authorized(request)) return unauthorized
        const query = new URLSearchParams(request.path.slice(request.path.indexOf("?") + 1))
        if (Number(query.get("ext")) < Date.now()) return { status: 404, body: { error: "URL signature expired" } }
        const file = files.download(query.get("mid") ?? "")
        return file === undefined ? { status: 404, body: { error: "not found" } } : { status: 200, body: null, bytes: file.bytes, headers: { "content-type": file.mimeType } }
      }
      origin = yield* startJsonServer((request) => {
        received.push(`${request.method} ${request.path}`)
        if (request.method === "GET" && request.path.startsWith("/whatsapp_business/attachments/?")) {
          const held = files.held(new URLSearchParams(request.path.slice(request.path.indexOf("?") + 1)).get("mid") ?? "")
          return held?.then(() => download(request)) ?? download(request)
        }
        const mediaPath = /^\/v21\.0\/([^/?]+)$/.exec(request.path)
        if (request.method === "GET" && mediaPath !== null) return media(request, decodeURIComponent(mediaPath[1] ?? ""))
        const match = /^\/v21\.0\/([^/]+)\/messages$/.exec(request.path)
        if (request.method !== "POST" || match === null) return invalid(`unknown path ${request.path}`)
        const authorization = request.headers["authorization"] ?? null
        calls.push({ phoneNumberId: match[1] ?? "", authorization, body: request.body })
        if (authorization !== `Bearer ${accessToken}`) {
          return graphError(401, 190, "Invalid OAuth access token - Cannot parse access token", "invalid token")
        }
        if (match[1] !== phoneNumberId) return graphError(400, 100, "Invalid parameter", "unknown phone number id")
        const failure = pending.shift()
        if (failure !== undefined) return failures[failure]
        const body = (request.body ?? {}) as Json
        const problem = violation(body)
        if (problem !== null) return invalid(problem)
        if (body["type"] !== "template" && closed.has(String(body["to"]))) {
          return graphError(400, 131047, "Re-engagement message", "Message failed to send because more than 24 hours have passed since the customer last replied to this number.")
        }
        sent += 1
        return {
          status: 200,
          body: {
            messaging_product: "whatsapp",
            contacts: [{ input: body["to"], wa_id: body["to"] }],
            messages: [{ id: `wamid.FAKE-OUT-${sent}` }]
          }
        }
      })
      return FakeWhatsApp.of({
        baseUrl: `${origin}/v21.0`,
        accessToken,
        phoneNumberId,
        calls: Effect.sync(() => [...calls]),
        received: Effect.sync(() => [...received]),
        failNext: (times, failure) => Effect.sync(() => void pending.push(...Array.from({ length: times }, () => failure))),
        closeWindow: (to) => Effect.sync(() => void closed.add(to)),
        openWindow: (to) => Effect.sync(() => void closed.delete(to)),
        files: files.test,
        expireNextUrl: (mediaId) => Effect.sync(() => void expiring.add(mediaId))
      })
    })

  static readonly layer: Layer.Layer<FakeWhatsApp> = Layer.scoped(FakeWhatsApp, FakeWhatsApp.make())
}
