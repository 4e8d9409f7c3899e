/**
 * `POST /api/messages` through the real HTTP server: messages captured as the `web` provider's,
 * exactly as sent, once per client id, planned and replied to on the page (no chat is sent anything).
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan, type Plan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { captureMessages, failureOf, peopleOf } from "../apiClient.js"
import { api, capturedTexts, closeIdle, drain, eventLog, layer, noteBody, telegramCalls } from "../harness.js"

const about = (name: string, ...seqs: ReadonlyArray<number>): Plan => ({
  ...emptyPlan,
  people: [{ contactId: null, name, notes: [{ sourceItemSeqs: seqs, directives: [] }] }]
})

/** The operator's web session: provider `web`, chat and sender the user `web:operator`. */
const session = "web:web:operator:operator:1"
const stream = `session-${session}`

const three = [
  { id: "m1", text: "Ana moved to Porto.\r\nShe starts at the clinic in May." },
  { id: "m2", text: "  Her sister Inês visits in June  " },
  { id: "m3", text: "Ana’s number: +351 912 345 678 👩🏽‍⚕️" }
]

describe("POST /api/messages", () => {
  it.effect("captures each message exactly, closes the session, files one note, and shows the reply instead of sending it", () =>
    Effect.gen(function*() {
      expect(yield* captureMessages(three)).toEqual({
        messages: three.map((m) => ({ id: m.id, messageId: `web:web:operator/${m.id}`, outcome: "recorded", sessionId: session }))
      })
      expect(yield* eventLog).toEqual([
        `${stream}#1 SessionOpened`,
        `${stream}#2 MessageReceived`,
        `${stream}#3 MessageReceived`,
        `${stream}#4 MessageReceived`,
        `${stream}#5 SessionClosed`
      ])
      expect(yield* closeIdle).toEqual({ closed: 0, planned: 1 })
      expect(yield* capturedTexts).toEqual(three.map((m) => m.text))
      // The note tidies whitespace at each message's edges, as for every provider.
      expect(yield* noteBody("note_1")).toBe(
        "Ana moved to Porto.\r\nShe starts at the clinic in May.\n\nHer sister Inês visits in June\n\nAna’s number: +351 912 345 678 👩🏽‍⚕️"
      )
      expect(yield* drain).toEqual({ sent: 1, failed: 0, held: 0 })
      expect(yield* telegramCalls).toEqual([])
      expect(yield* peopleOf()).toEqual({ items: [{ id: "person_1", user: "web:operator", name: "Ana", noteCount: 1 }], nextCursor: null })
    }).pipe(Effect.provide(layer([planStep(about("Ana", 1, 2, 3))]))))

  it.effect("sent again records nothing more and closes nothing more", () =>
    Effect.gen(function*() {
      yield* captureMessages(three)
      const before = yield* eventLog
      expect(yield* captureMessages(three)).toEqual({
        messages: three.map((m) => ({ id: m.id, messageId: `web:web:operator/${m.id}`, outcome: "already-recorded", sessionId: session }))
      })
      expect(yield* eventLog).toEqual(before)
    }).pipe(Effect.provide(layer([]))))

  it.effect("an allowed user's messages file into the same notebook as their chat's", () =>
    Effect.gen(function*() {
      const user = "telegram:100000001"
      expect(yield* captureMessages([{ id: "a", text: "Bea got the job." }, { id: "b", text: "/done" }], { user, close: false })).toEqual({
        messages: [
          { id: "a", messageId: "web:telegram:100000001/a", outcome: "recorded", sessionId: "web:telegram:100000001:100000001:1" },
          { id: "b", messageId: "web:telegram:100000001/b", outcome: "command", sessionId: null }
        ]
      })
      expect(yield* closeIdle).toEqual({ closed: 0, planned: 1 })
      expect(yield* peopleOf()).toEqual({ items: [{ id: "person_1", user: "telegram:100000001", name: "Bea", noteCount: 1 }], nextCursor: null })
    }).pipe(Effect.provide(layer([planStep(about("Bea", 1))]))))

  it.effect("refuses bad input with a message naming the field, and records nothing", () =>
    Effect.gen(function*() {
      // Sent raw: bodies the contract's client refuses to send, so only the wire shows the server's 400.
      const refused = (body: unknown) =>
        Effect.map(api("/api/messages", { method: "POST", body }), (r) => ({ status: r.status, message: (r.json as { message?: string }).message }))
      expect(yield* refused({ messages: [] })).toEqual({
        status: 400,
        message: expect.stringContaining("must be a list of 1 to 100 messages")
      })
      expect(yield* refused({ messages: [{ id: "a/b", text: "x" }] })).toEqual({
        status: 400,
        message: expect.stringContaining("must be 1 to 100 letters, digits, '.', '_', '~' or '-'")
      })
      expect(yield* refused({ messages: [{ id: "a", text: " \n " }] })).toEqual({ status: 400, message: expect.stringContaining("must hold some text") })
      expect(yield* refused({ messages: [{ id: "a", text: "bad \u0000 byte" }] })).toEqual({
        status: 400,
        message: expect.stringContaining("which is not text")
      })
      expect(yield* failureOf(captureMessages([{ id: "a", text: "hello" }], { user: "telegram:999", close: false }))).toEqual({
        _tag: "BadRequest",
        message: "user must be web:operator or a user on the allow-list (VERBATIM_ALLOWED_SENDERS)"
      })
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(layer([]))))
})
