/**
 * "Paste a chat" over real HTTP, without scripts: a WhatsApp paste is previewed message by message
 * (nothing captured yet), then captured by the preview's one button as separate messages of the
 * writer's web session, in order, each forwarded from its author and its text whole; the button
 * pressed twice records once; a paste with no names is one message; a stale form token, an empty
 * paste and a message over 1 MiB are refused, and nothing is recorded.
 */
import { describe, expect, it } from "@effect/vitest"
import { maxMessageBytes } from "@verbatim/domain/MessageLimit"
import { EventStore, start } from "@verbatim/projections/EventStore"
import { mixedText } from "@verbatim/testkit/MixedText"
import { Effect } from "effect"
import { apiToken, eventLog, Harness, layer } from "../harness.js"
import { unescapeHtml } from "../unescapeHtml.js"

const whatsApp = [
  "[12:01, 05/12/2026] Ana: Moved to Porto!",
  "Starts at the clinic in May: the one by the river.",
  "[12:03, 05/12/2026] \u202a+351 912 345 678\u202c: Inês visits in June — “bring the cake” 👩🏽‍⚕️",
  "",
  "[9:15 PM, 12/5/2026] Tom: <b>not markup</b> & 'quotes'"
].join("\r\n")

/** Every captured message: its stream, text and whom it is forwarded from, in log order. */
const captured = Effect.flatMap(EventStore, (store) =>
  Effect.map(store.readPage(start, 10_000), (events) =>
    events.flatMap((e) => e.event._tag === "MessageReceived" ? [[e.stream, e.event.message.text, e.event.message.forwardedFrom]] : [])))

/** A client signed in as the operator, posting the pages' forms as a browser without scripts would. */
const client = Effect.flatMap(Harness, ({ baseUrl }) =>
  Effect.promise(async () => {
    const signIn = await fetch(`${baseUrl}/signin`, { method: "POST", body: new URLSearchParams({ token: apiToken }), redirect: "manual" })
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!
    const compose = await (await fetch(`${baseUrl}/compose`, { headers: { cookie } })).text()
    const csrf = /name="csrf" value="([^"]+)"/.exec(compose)![1]!
    const post = async (path: string, fields: Record<string, string>) => {
      const response = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { cookie }, body: new URLSearchParams(fields), redirect: "manual" })
      return { status: response.status, location: response.headers.get("location"), page: await response.text() }
    }
    const get = async (path: string) => (await fetch(`${baseUrl}${path}`, { headers: { cookie } })).text()
    return { csrf, post, get, pasteBox: /<form class="compose" method="post" action="\/compose\/paste"[\s\S]*?<\/form>/.test(compose) }
  }))

/** What a preview shows: each message's author and text, the capture form's fields, and any problem. */
const previewOf = (page: string) => ({
  messages: [...page.matchAll(/data-author="([^"]*)"[\s\S]*?<div class="body" data-text>([\s\S]*?)<\/div>/g)].map((m) => [unescapeHtml(m[1]!), unescapeHtml(m[2]!)]),
  capture: /<form method="post" action="\/compose\/paste\/capture"/.test(page)
    ? { id: /name="id" value="([^"]+)"/.exec(page)![1]!, paste: unescapeHtml(/name="paste" value="([^"]*)"/.exec(page)![1]!) }
    : null,
  problem: /<p id="paste-error" class="error" role="alert">([^<]*)<\/p>/.exec(page)?.[1] ?? null
})

describe("paste a chat on the Capture page", () => {
  it.effect("a WhatsApp paste is previewed, then captured as separate forwarded messages in order; pressed twice, once", () =>
    Effect.gen(function*() {
      const { csrf, get, post, pasteBox } = yield* client
      expect(pasteBox).toBe(true)
      const shown = yield* Effect.promise(() => post("/compose/paste", { csrf, paste: whatsApp }))
      const preview = previewOf(shown.page)
      expect({ status: shown.status, ...preview, capture: preview.capture?.paste }).toEqual({
        status: 200,
        messages: [
          ["Ana", "Moved to Porto!\nStarts at the clinic in May: the one by the river."],
          ["+351 912 345 678", "Inês visits in June — “bring the cake” 👩🏽‍⚕️"],
          ["Tom", "<b>not markup</b> & 'quotes'"]
        ],
        capture: whatsApp.replace(/\r\n/g, "\n"),
        problem: null
      })
      expect(yield* eventLog).toEqual([])
      const fields = { csrf, id: preview.capture!.id, paste: preview.capture!.paste }
      const first = yield* Effect.promise(() => post("/compose/paste/capture", fields))
      const again = yield* Effect.promise(() => post("/compose/paste/capture", fields))
      expect([first.status, first.location, again.status, again.location]).toEqual([303, "/compose?notice=pasted", 303, "/compose?notice=again"])
      const messages = yield* captured
      expect(messages.map(([, text, from]) => [text, from])).toEqual([
        ["Moved to Porto!\nStarts at the clinic in May: the one by the river.", "Ana"],
        ["Inês visits in June — “bring the cake” 👩🏽‍⚕️", "+351 912 345 678"],
        ["<b>not markup</b> & 'quotes'", "Tom"]
      ])
      // One session of the operator's web conversation holds all three.
      expect(new Set(messages.map(([stream]) => stream)).size).toBe(1)
      // The page's "In this session" and the session's own page lead each message with whom it was forwarded from.
      const forwarded = (page: string) =>
        [...page.matchAll(/(?:<span class="muted" data-forwarded>|<p class="muted" data-forwarded>)([^<]*)<\/(?:span|p)><div class="body">([^<]*)<\/div>/g)]
          .map((m) => [unescapeHtml(m[1]!), unescapeHtml(m[2]!)])
      const inSession = [
        ["Forwarded from Ana", "Moved to Porto!\nStarts at the clinic in May: the one by the river."],
        ["Forwarded from +351 912 345 678", "Inês visits in June — “bring the cake” 👩🏽‍⚕️"],
        ["Forwarded from Tom", "<b>not markup</b> & 'quotes'"]
      ]
      expect(forwarded(yield* Effect.promise(() => get("/compose")))).toEqual(inSession)
      const sessionId = String(messages[0]![0]).replace(/^session-/, "")
      expect(forwarded(yield* Effect.promise(() => get(`/sessions/${sessionId}`)))).toEqual(inSession)
    }).pipe(Effect.provide(layer([]))), 60_000)

  it.effect("`Name: text` lines are messages; a paste with no names is one message with every character kept", () =>
    Effect.gen(function*() {
      const { csrf, post } = yield* client
      const named = previewOf((yield* Effect.promise(() => post("/compose/paste", { csrf, paste: "Ana: hi\r\nsee you\r\n\r\nTom: bye" }))).page)
      expect(named.messages).toEqual([["Ana", "hi\nsee you"], ["Tom", "bye"]])
      const plain = "Ana moved to Porto.\r\n\r\n  She starts in May, at 9:30."
      const shown = previewOf((yield* Effect.promise(() => post("/compose/paste", { csrf, paste: plain }))).page)
      expect(shown.messages).toEqual([["", "Ana moved to Porto.\n\n  She starts in May, at 9:30."]])
      const done = yield* Effect.promise(() => post("/compose/paste/capture", { csrf, id: shown.capture!.id, paste: shown.capture!.paste }))
      expect(done.status).toBe(303)
      expect((yield* captured).map(([, text, from]) => [text, from])).toEqual([["Ana moved to Porto.\n\n  She starts in May, at 9:30.", null]])
    }).pipe(Effect.provide(layer([]))), 60_000)

  it.effect("a stale form token, an empty paste and a message over 1 MiB are refused, and nothing is recorded", () =>
    Effect.gen(function*() {
      const { csrf, post } = yield* client
      const stale = yield* Effect.promise(() => post("/compose/paste/capture", { csrf: "stale", id: "m-1", paste: "Ana: hi" }))
      const stalePreview = yield* Effect.promise(() => post("/compose/paste", { csrf: "stale", paste: "Ana: hi" }))
      expect([stale.status, stale.page, stalePreview.status]).toEqual([403, "Forbidden: a stale or missing form token", 403])
      const empty = yield* Effect.promise(() => post("/compose/paste", { csrf, paste: " \r\n " }))
      expect({ status: empty.status, ...previewOf(empty.page) }).toEqual({ status: 400, messages: [], capture: null, problem: "The paste must hold some text." })
      const over = `Ana: hi\nTom: ${mixedText(maxMessageBytes + 1)}`
      for (const path of ["/compose/paste", "/compose/paste/capture"]) {
        const refused = yield* Effect.promise(() => post(path, { csrf, id: "m-2", paste: over }))
        expect({ status: refused.status, problem: previewOf(refused.page).problem, capture: previewOf(refused.page).capture }).toEqual({
          status: 413,
          problem: "Message 2 is 1,048,577 bytes of UTF-8; one message holds at most 1,048,576 (1 MiB): split it, and paste each part.",
          capture: null
        })
        expect(unescapeHtml(/<textarea id="paste"[^>]*>\n([\s\S]*?)<\/textarea>/.exec(refused.page)?.[1] ?? "") === over).toBe(true)
      }
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(layer([]))), 60_000)
})
