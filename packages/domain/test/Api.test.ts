import { describe, expect, it } from "@effect/vitest"
import { HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Api, BadRequest, Conflict, NotFound, NotReady, PayloadTooLarge, Unauthorized } from "../src/Api.js"
import { AnswerPayload } from "../src/ApiResponses.js"

const spec = OpenApi.fromApi(Api)

/** Every operation as "METHOD path -> statuses [security]". */
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  (["get", "post"] as const).flatMap((method) => {
    const operation = item[method]
    if (operation === undefined) return []
    const security = operation.security.map((requirement) => Object.keys(requirement).join("+")).join(",")
    return [`${method.toUpperCase()} ${path} -> ${Object.keys(operation.responses).join(",")} [${security}]`]
  })
)

describe("Api contract", () => {
  it("declares every endpoint of the HTTP surface with its statuses, the read API behind a bearer token", () => {
    expect(operations).toEqual([
      "POST /webhooks/telegram -> 200,400,401,413 []",
      "GET /webhooks/whatsapp -> 200,400,401 []",
      "POST /webhooks/whatsapp -> 200,400,401,413 []",
      "GET /api/people -> 200,400,401 [bearer]",
      "GET /api/people/{id}/notes -> 200,400,401,403,404 [bearer]",
      "GET /api/people/{id}/export -> 200,400,401,403,404 [bearer]",
      "GET /api/notes/{id} -> 200,400,401,403,404 [bearer]",
      "GET /api/notes/{id}/audit -> 200,400,401,403,404 [bearer]",
      "GET /api/questions -> 200,400,401 [bearer]",
      "POST /api/questions/{id}/answer -> 200,400,401,404,409 [bearer]",
      "GET /api/sessions/{id}/accounting -> 200,400,401,404 [bearer]",
      "GET /api/search -> 200,400,401,403 [bearer]",
      "GET /api/events -> 200,400,401,403 [bearer]",
      "POST /api/messages -> 200,400,401,413 [bearer]",
      "POST /api/notes/{id}/move -> 200,400,401,404,409 [bearer]",
      "POST /api/notes/{id}/split -> 200,400,401,404,409 [bearer]",
      "POST /api/notes/{id}/discard -> 200,400,401,404,409 [bearer]",
      "POST /api/notes/{id}/restore -> 200,400,401,404,409 [bearer]",
      "POST /api/people/{id}/rename -> 200,400,401,404,409 [bearer]",
      "POST /api/people/{id}/merge -> 200,400,401,404,409 [bearer]",
      "POST /api/people/{id}/unmerge -> 200,400,401,404,409 [bearer]",
      "POST /api/notes/{id}/forget -> 200,400,401,404 [bearer]",
      "POST /api/people/{id}/forget -> 200,400,401,404 [bearer]",
      "POST /api/messages/{id}/forget -> 200,400,401,404 [bearer]",
      "GET /api/reminders -> 200,400,401 [bearer]",
      "POST /api/reminders/{id}/done -> 200,400,401,404,409 [bearer]",
      "POST /api/reminders/{id}/snooze -> 200,400,401,404,409 [bearer]",
      "POST /api/reminders/{id}/reschedule -> 200,400,401,404,409 [bearer]",
      "POST /api/reminders/{id}/cancel -> 200,400,401,404,409 [bearer]",
      "POST /api/ask -> 200,400,401,403 [bearer]",
      "GET /api/asks -> 200,400,401,403 [bearer]",
      "GET /api/asks/{id} -> 200,400,401,403,404 [bearer]",
      "GET /healthz -> 200,400 []",
      "GET /readyz -> 200,400,503 []",
      "GET /metrics -> 200,400 []"
    ])
    expect(spec.components.securitySchemes).toEqual({ bearer: { type: "http", scheme: "bearer" } })
  })

  it("sets the HTTP status on each error schema", () => {
    expect([BadRequest, Unauthorized, NotFound, Conflict, PayloadTooLarge, NotReady].map((error) => [
      error.identifier,
      HttpApiSchema.getStatusError(error)
    ])).toEqual([
      ["BadRequest", 400],
      ["Unauthorized", 401],
      ["NotFound", 404],
      ["Conflict", 409],
      ["PayloadTooLarge", 413],
      ["NotReady", 503]
    ])
  })

  it("encodes errors with their tag so clients can tell them apart", () => {
    expect(Schema.encodeSync(NotFound)(new NotFound({ resource: "note", id: "n1" }))).toEqual({
      _tag: "NotFound",
      resource: "note",
      id: "n1"
    })
  })

  it("decodes an answer naming a person or keeping the text as the sender's own note", () => {
    const decode = Schema.decodeUnknownSync(AnswerPayload)
    expect([
      decode({ answer: { _tag: "Person", contactId: null, name: "Alice" } }),
      decode({ answer: { _tag: "Unattached" } })
    ]).toEqual([
      { answer: { _tag: "Person", contactId: null, name: "Alice" } },
      { answer: { _tag: "Unattached" } }
    ])
  })
})
