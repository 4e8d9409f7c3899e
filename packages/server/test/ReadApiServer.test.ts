/** The read API, health and metrics through the real HTTP server. */
import { describe, expect, it } from "@effect/vitest"
import { NoteId, QuestionId, SessionId } from "@verbatim/domain/Ids"
import { emptyPlan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { DateTime, Effect } from "effect"
import { client, failureOf } from "./apiClient.js"
import { api, closeIdle, eventLog, fixture, Harness, layer, telegram } from "./harness.js"

const sessionId = "telegram:100000001:100000001:1"

const asked = layer([planStep({ ...emptyPlan, unclear: [{ sourceItemSeqs: [1], candidates: ["Ana"] }] })])

describe("read API", () => {
  it.effect("every /api endpoint refuses a missing or wrong bearer token", () =>
    Effect.gen(function*() {
      const harness = yield* Harness
      const refused = { status: 401, body: JSON.stringify({ message: "missing or wrong bearer token", _tag: "Unauthorized" }) }
      expect(yield* harness.request("GET", "/api/people")).toEqual(refused)
      expect(yield* harness.request("GET", "/api/events", { headers: { authorization: "Bearer nope" } })).toEqual(refused)
      expect(yield* harness.request("POST", "/api/notes/note_1/discard")).toEqual(refused)
      expect(yield* harness.request("POST", "/api/people/person_1/merge", { body: "{\"into\":\"person_2\"}" })).toEqual(refused)
      expect(yield* harness.request("POST", "/api/people/person_1/unmerge")).toEqual(refused)
    }).pipe(Effect.provide(layer([]))))

  it.effect("answering through the API files the note once; again is 409; an unknown question is 404", () =>
    Effect.gen(function*() {
      yield* telegram(fixture("telegram/01_text_private.json"))
      yield* closeIdle
      const answer = { answer: { _tag: "Person", contactId: null, name: " Ana " } }
      const refusal = (body: unknown) =>
        Effect.map(api("/api/questions/q_1/answer", { method: "POST", body }), (reply) => [reply.status, (reply.json as { message: string }).message])
      expect([
        yield* refusal({ answer: { _tag: "Person", contactId: null, name: "  " } }),
        yield* refusal({ answer: { _tag: "Person", contactId: null, name: "A\u0000na" } })
      ]).toEqual([
        [400, "answer.name must not be empty"],
        [400, "answer.name contains U+0000 (NUL), which is not text"]
      ])
      // Sent raw: the name as a person types it, which the contract's client would refuse to send untrimmed.
      expect(yield* api("/api/questions/q_1/answer", { method: "POST", body: answer })).toEqual({
        status: 200,
        json: { questionId: "q_1", noteId: "note_1" }
      })
      const ana = { _tag: "Person", contactId: null, name: "Ana" } as const
      expect(yield* failureOf(client((c) => c.api.answer({ path: { id: QuestionId.make("q_1") }, payload: { answer: ana } })))).toEqual({ _tag: "Conflict", message: "That question was already answered; nothing changed." })
      expect(yield* failureOf(client((c) => c.api.answer({ path: { id: QuestionId.make("q_9") }, payload: { answer: ana } })))).toEqual({ _tag: "NotFound", resource: "question", id: "q_9" })
      expect(yield* client((c) => c.api.questions({ urlParams: { status: "answered" } }))).toEqual({
        items: [{
          id: "q_1",
          sessionId,
          user: "telegram:100000001",
          reason: "unclear",
          status: "answered",
          sources: [{ messageId: "telegram:100000001:6557", seq: 1, text: "hello there" }],
          candidates: [{ _tag: "Person", contactId: null, name: "Ana" }]
        }],
        nextCursor: null
      })
      const audit = yield* client((c) => c.api.noteAudit({ path: { id: NoteId.make("note_1") } }))
      expect(audit.confirmation).toEqual({ questionId: "q_1", answer: ana, answeredAt: DateTime.unsafeMake("1970-01-01T00:00:31.000Z") })
      expect(yield* failureOf(client((c) => c.api.note({ path: { id: NoteId.make("note_9") } })))).toEqual({ _tag: "NotFound", resource: "note", id: "note_9" })
      expect(yield* failureOf(client((c) => c.api.accounting({ path: { id: SessionId.make("nope") } })))).toEqual({ _tag: "NotFound", resource: "session", id: "nope" })
    }).pipe(Effect.provide(asked)))

  it.effect("the event log pages from a cursor; a malformed cursor is a 400", () =>
    Effect.gen(function*() {
      yield* telegram(fixture("telegram/01_text_private.json"))
      const first = yield* client((c) => c.api.events({ urlParams: { limit: 1 } }))
      const page = yield* client((c) => c.api.events({ urlParams: { after: first.nextAfter, limit: 1 } }))
      expect([first.nextAfter, ...page.events.map((e) => [e.position, e.cursor, e.streamId, e.event._tag])]).toEqual([
        "0:1",
        [2, "0:2", `session-${sessionId}`, "MessageReceived"]
      ])
      expect(page.nextAfter).toBe("0:2")
      expect(yield* client((c) => c.api.events({ urlParams: { after: "0:2" } }))).toEqual({ events: [], nextAfter: "0:2" })
      // Malformed cursors are sent raw: the contract's client would refuse to send them.
      const refusal = (path: string) => Effect.map(api(path), (reply) => [reply.status, (reply.json as { message: string }).message])
      const cursorWhy = "must be a cursor as given: an earlier page's nextAfter or an event's cursor"
      expect([
        yield* refusal("/api/questions?limit=1&cursor=person_1"),
        yield* refusal("/api/events?after=0:99999999999999999999"),
        yield* refusal("/api/events?after=2")
      ]).toEqual([
        [400, "cursor must be the nextCursor of an earlier page of this list"],
        [400, `after ${cursorWhy}`],
        [400, `after ${cursorWhy}`]
      ])
    }).pipe(Effect.provide(layer([]))))
})

describe("health and metrics", () => {
  it.effect("healthz, readyz, metrics and the OpenAPI document answer without a token", () =>
    Effect.gen(function*() {
      const harness = yield* Harness
      expect(yield* harness.request("GET", "/healthz")).toEqual({ status: 200, body: JSON.stringify({ status: "ok" }) })
      expect(yield* harness.request("GET", "/readyz")).toEqual({ status: 200, body: JSON.stringify({ status: "ready" }) })
      yield* telegram(fixture("telegram/01_text_private.json"))
      const metrics = yield* harness.request("GET", "/metrics")
      expect(metrics.status).toBe(200)
      const lines = metrics.body.split("\n")
      expect(lines.filter((l) => /^verbatim_(replies_queued|sessions_open|sessions_unplanned) /.test(l))).toEqual([
        "verbatim_replies_queued 0",
        "verbatim_sessions_open 1",
        "verbatim_sessions_unplanned 0"
      ])
      expect(lines.filter((l) => l.startsWith("# TYPE verbatim_webhooks_total"))).toEqual(["# TYPE verbatim_webhooks_total counter"])
      expect(lines.some((l) => /^verbatim_webhooks_total\{provider="telegram",outcome="accepted"\} \d+$/.test(l))).toBe(true)
      const openApi = yield* harness.request("GET", "/openapi.json")
      expect(Object.keys((JSON.parse(openApi.body) as { paths: Record<string, unknown> }).paths).sort()).toEqual([
        "/api/ask",
        "/api/asks",
        "/api/asks/{id}",
        "/api/events",
        "/api/messages",
      "/api/messages/{id}/forget",
        "/api/notes/{id}",
        "/api/notes/{id}/audit",
        "/api/notes/{id}/discard",
      "/api/notes/{id}/forget",
        "/api/notes/{id}/move",
        "/api/notes/{id}/restore",
        "/api/notes/{id}/split",
        "/api/people",
        "/api/people/{id}/export",
      "/api/people/{id}/forget",
        "/api/people/{id}/merge",
        "/api/people/{id}/notes",
        "/api/people/{id}/rename",
        "/api/people/{id}/unmerge",
        "/api/questions",
        "/api/questions/{id}/answer",
        "/api/reminders",
        "/api/reminders/{id}/cancel",
        "/api/reminders/{id}/done",
        "/api/reminders/{id}/reschedule",
        "/api/reminders/{id}/snooze",
        "/api/search",
        "/api/sessions/{id}/accounting",
        "/healthz",
        "/metrics",
        "/readyz",
        "/webhooks/telegram",
        "/webhooks/whatsapp"
      ])
      expect((yield* eventLog).length).toBe(2)
    }).pipe(Effect.provide(layer([]))))
})
