/** 400s a newcomer meets: which parameter or field was wrong and what it allows, in a body of bounded size. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { apiToken, eventLog, Harness, layer, whatsApp } from "./harness.js"

/** A WhatsApp body of `count` messages from Alice, each made by `message`. */
const whatsAppBody = (count: number, message: (i: number) => object) =>
  JSON.stringify({
    object: "whatsapp_business_account",
    entry: [{ id: "1", changes: [{ field: "messages", value: {
      messages: Array.from({ length: count }, (_, i) => ({ from: "15550001111", id: `wamid.${i}`, type: "text", ...message(i) }))
    } }] }]
  })

const badRequest = (message: string) => ({ status: 400, body: JSON.stringify({ message, _tag: "BadRequest" }) })

/**
 * A request with the bearer token; the body as sent, not parsed. Raw on purpose: these are
 * parameters and bodies the contract's client would refuse to send, and the 400's bytes are the point.
 */
const raw = (method: string, path: string, body?: string) =>
  Effect.flatMap(Harness, (h) =>
    h.request(method, path, {
      headers: { authorization: `Bearer ${apiToken}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body })
    }))

describe("API decode errors", () => {
  it.effect("a bad query parameter on any endpoint names the first bad parameter and what it allows", () =>
    Effect.gen(function*() {
      expect([
        yield* raw("GET", "/api/questions?status=bogus"),
        yield* raw("GET", "/api/questions?limit=0"),
        yield* raw("GET", "/api/people?limit=ten"),
        yield* raw("GET", "/api/people/person_1/notes?limit=1.5&cursor=person_1"),
        yield* raw("GET", "/api/events?after=2"),
        yield* raw("GET", "/api/events?after=0:99999999999999999999&limit=501")
      ]).toEqual([
        badRequest("status must be one of open, answered"),
        badRequest("limit must be a whole number from 1 to 500"),
        badRequest("limit must be a whole number from 1 to 500"),
        badRequest("limit must be a whole number from 1 to 500"),
        badRequest("after must be a cursor as given: an earlier page's nextAfter or an event's cursor"),
        badRequest("after must be a cursor as given: an earlier page's nextAfter or an event's cursor")
      ])
    }).pipe(Effect.provide(layer([]))))

  it.effect("a bad answer body names the field; a body that is not JSON says so", () =>
    Effect.gen(function*() {
      const answer = (body: string) => raw("POST", "/api/questions/q_1/answer", body)
      expect([
        yield* answer("{\"answer\": "),
        yield* answer("[]"),
        yield* answer("{}"),
        yield* answer("{\"answer\": 1}"),
        yield* answer("{\"answer\": {\"_tag\": \"Someone\"}}"),
        yield* answer("{\"answer\": {\"_tag\": \"Person\", \"contactId\": 3, \"name\": \"  \"}}"),
        yield* answer("{\"answer\": {\"_tag\": \"Person\", \"contactId\": null, \"name\": \"A\\u0000na\"}}")
      ]).toEqual([
        badRequest("body is not JSON: SyntaxError: Unexpected end of JSON input"),
        badRequest("body must be a JSON object {\"answer\": …}"),
        badRequest("answer is missing"),
        badRequest("answer must be {\"_tag\":\"Person\",\"contactId\":null or a string,\"name\":\"…\"} or {\"_tag\":\"Unattached\"}"),
        badRequest("answer._tag must be \"Person\" | \"Unattached\", actual \"Someone\""),
        badRequest("answer.contactId must be null or a string"),
        badRequest("answer.name contains U+0000 (NUL), which is not text")
      ])
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(layer([]))))

  it.effect("a WhatsApp verification without its parameters names them", () =>
    Effect.gen(function*() {
      expect(yield* raw("GET", "/webhooks/whatsapp?hub.mode=subscribe")).toEqual(
        badRequest("hub.verify_token is missing")
      )
    }).pipe(Effect.provide(layer([]))))
})

describe("bounded error bodies", () => {
  it.effect("a large signed WhatsApp body with many bad messages gets a short 400: five issues, values cut, the rest counted", () =>
    Effect.gen(function*() {
      // Every timestamp long and not decimal digits: the old answer quoted each in full, 8 MB for this body.
      const badTimestamps = whatsAppBody(1300, () => ({ timestamp: `1e${"9".repeat(250)}`, text: { body: "Ana moved to Lyon" } }))
      const reply = yield* whatsApp(badTimestamps)
      const issue = (i: number) =>
        `entry[0].changes[0].value.messages[${i}].timestamp: unix seconds as plain decimal digits, actual "1e${"9".repeat(97)}…`
      expect(badTimestamps.length).toBe(464_405)
      expect(reply).toEqual(badRequest(`not a WhatsApp webhook body: ${[0, 1, 2, 3, 4].map(issue).join("; ")}; and 1295 more`))
      expect(reply.body.length).toBeLessThan(2_000)
      // Every message decodes but none can be stored exactly: the refusals are listed the same way.
      const unstorable = whatsAppBody(3000, () => ({ timestamp: "1767225600", text: { body: `a\u0000b` } }))
      const refusal = (i: number) => `text of whatsapp message wamid.${i} contains U+0000 (NUL), which is not text`
      expect(yield* whatsApp(unstorable)).toEqual(badRequest(`${[0, 1, 2, 3, 4].map(refusal).join("; ")}; and 2995 more`))
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(layer([], { settings: { maxBodyBytes: 1024 * 1024 } }))))
})
