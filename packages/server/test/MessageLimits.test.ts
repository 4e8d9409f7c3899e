/**
 * What one message and one request may hold, through the real server: a message of 1 MiB of
 * mixed scripts and emoji is filed whole from the API and from the page while `/healthz` keeps
 * answering; a byte more is refused by name and nothing is recorded; a body over the request
 * limit is a 413 naming it, announced or not; JSON nested past 64 levels is a 400 on every JSON
 * route.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan, type Plan } from "@verbatim/domain/Plan"
import { maxMessageBytes } from "@verbatim/domain/MessageLimit"
import { mixedText } from "@verbatim/testkit/MixedText"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect, Fiber } from "effect"
import { request as httpRequest } from "node:http"
import { unescapeHtml } from "./unescapeHtml.js"
import { captureMessages, failureOf } from "./apiClient.js"
import { apiToken, capturedTexts, closeIdle, eventLog, Harness, layer, noteBody } from "./harness.js"

const plan: Plan = { ...emptyPlan, people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] }] }

/** `/healthz` asked again and again until `until` is done: how many answers, and their statuses. */
const healthWhile = <A, E, R>(until: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const { request } = yield* Harness
    const statuses: Array<number> = []
    const poll = Effect.forever(Effect.flatMap(request("GET", "/healthz"), (reply) => Effect.sync(() => statuses.push(reply.status))))
    const fiber = yield* Effect.fork(poll)
    const result = yield* until
    yield* Fiber.interrupt(fiber)
    return { result, statuses: [...new Set(statuses)] }
  })

/** A raw POST, sent chunked (no length announced) when `chunked`. */
const rawPost = (path: string, body: Buffer, headers: Record<string, string>, chunked: boolean) =>
  Effect.flatMap(Harness, ({ baseUrl }) =>
    Effect.promise(() =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(`${baseUrl}${path}`, {
          method: "POST",
          headers: chunked ? headers : { ...headers, "content-length": String(body.length) }
        }, (res) => {
          let text = ""
          res.setEncoding("utf8")
          res.on("data", (chunk: string) => (text += chunk))
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }))
        })
        req.on("error", reject)
        // Written in parts, so a body sent without its length arrives as chunks.
        for (let at = 0; at < body.length; at += 256 * 1024) req.write(body.subarray(at, at + 256 * 1024))
        req.end()
      })
    ))

const json = { authorization: `Bearer ${apiToken}`, "content-type": "application/json" }

describe("one message of up to 1 MiB", () => {
  it.effect("is filed whole from the API while /healthz keeps answering", () =>
    Effect.gen(function*() {
      const text = mixedText(maxMessageBytes)
      expect(Buffer.byteLength(text)).toBe(maxMessageBytes)
      yield* captureMessages([{ id: "m1", text }])
      const planned = yield* healthWhile(closeIdle)
      expect(planned).toEqual({ result: { closed: 0, planned: 1 }, statuses: [200] })
      expect((yield* noteBody("note_1")) === text).toBe(true)
      expect((yield* capturedTexts).map((t) => t === text)).toEqual([true])
    }).pipe(Effect.provide(layer([planStep(plan)]))), 60_000)

  it.effect("a byte more is refused by name, and nothing of the request is recorded", () =>
    Effect.gen(function*() {
      // The contract's 413: the client decodes a `PayloadTooLarge` from that status only.
      const refused = yield* failureOf(captureMessages([{ id: "m1", text: "Ana is well." }, { id: "m2", text: mixedText(maxMessageBytes + 1) }], { close: false }))
      expect(refused).toEqual({
        _tag: "PayloadTooLarge",
        limitBytes: maxMessageBytes,
        message: "messages[1].text is 1,048,577 bytes of UTF-8; one message holds at most 1,048,576 (1 MiB)"
      })
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(layer([]))), 60_000)

  it.effect("is filed whole from the page's form; a byte more goes back to the page with the text kept", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* Harness
      const text = mixedText(maxMessageBytes)
      const over = mixedText(maxMessageBytes + 1)
      const sent = yield* Effect.promise(async () => {
        const signIn = await fetch(`${baseUrl}/signin`, { method: "POST", body: new URLSearchParams({ token: apiToken }), redirect: "manual" })
        const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!
        const form = async () => {
          const page = await (await fetch(`${baseUrl}/compose`, { headers: { cookie } })).text()
          return { csrf: /name="csrf" value="([^"]+)"/.exec(page)![1]!, id: /name="id" value="([^"]+)"/.exec(page)![1]! }
        }
        const post = async (body: string) => {
          const response = await fetch(`${baseUrl}/compose`, {
            method: "POST",
            headers: { cookie },
            body: new URLSearchParams({ ...(await form()), text: body, then: "file" }),
            redirect: "manual"
          })
          return { status: response.status, page: await response.text() }
        }
        const refused = await post(over)
        const filed = await post(text)
        return {
          refused: refused.status,
          reason: /<p id="compose-error" class="error">([^<]*)<\/p>/.exec(refused.page)?.[1],
          kept: unescapeHtml(/<textarea[^>]*>([\s\S]*?)<\/textarea>/.exec(refused.page)?.[1] ?? "") === over,
          filed: filed.status
        }
      })
      expect(sent).toEqual({
        refused: 413,
        reason: "The message is 1,048,577 bytes of UTF-8; one message holds at most 1,048,576 (1 MiB): split it, and send each part.",
        kept: true,
        filed: 303
      })
      expect(yield* closeIdle).toEqual({ closed: 0, planned: 1 })
      expect((yield* capturedTexts).map((t) => t === text)).toEqual([true])
      expect((yield* noteBody("note_1")) === text).toBe(true)
    }).pipe(Effect.provide(layer([planStep(plan)]))), 60_000)
})

// Sent raw: a body over the server's limit, sent with and without its length, and JSON nested too
// deep are what the contract's client cannot send; the status and bytes on the wire are the point.
describe("a request body", () => {
  it.effect("over the limit is a 413 that names it, whether its length is announced or not; nothing is recorded", () =>
    Effect.gen(function*() {
      const body = Buffer.from(JSON.stringify({ messages: [{ id: "m1", text: "a".repeat(5 * 1024 * 1024) }] }))
      const refusal = {
        status: 413,
        body: JSON.stringify({
          _tag: "PayloadTooLarge",
          limitBytes: 4194304,
          message: "the body is over 4 MiB (4194304 bytes), the most one request may send"
        })
      }
      expect(yield* rawPost("/api/messages", body, json, false)).toEqual(refusal)
      expect(yield* rawPost("/api/messages", body, json, true)).toEqual(refusal)
      expect(yield* rawPost("/compose", body, { "content-type": "application/x-www-form-urlencoded" }, false)).toEqual({
        status: 413,
        body: "Too large: a form may send at most 4 MiB (4194304 bytes)."
      })
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(layer([]))), 60_000)

  it.effect("nested deeper than 64 levels is a 400 on every JSON route", () =>
    Effect.gen(function*() {
      const deep = Buffer.from(`{"messages":${"[".repeat(100_000)}${"]".repeat(100_000)}}`)
      const refusal = { status: 400, body: JSON.stringify({ _tag: "BadRequest", message: "body nests deeper than 64 levels" }) }
      expect(yield* rawPost("/api/messages", deep, json, false)).toEqual(refusal)
      expect(yield* rawPost("/api/questions/q1/answer", deep, json, false)).toEqual(refusal)
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(layer([]))), 60_000)
})
