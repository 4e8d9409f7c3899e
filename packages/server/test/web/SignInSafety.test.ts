/**
 * Sign-in that cannot leak or be hijacked, through the real server: `/web` in a group posts no
 * link; `next` goes only to a plain path on this site; a form posted from another site is
 * refused (a forged sign-in included) and uses nothing up; the cookie is `Secure` when the site's
 * public address is https; a merged person's old address leads on only for a viewer who may see them.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan } from "@verbatim/domain/Plan"
import * as ReplyText from "@verbatim/domain/ReplyText"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { PersonId, UserId } from "@verbatim/domain/Ids"
import { Effect, Layer, TestClock } from "effect"
import { issue, WebKeys } from "../../src/Web/SignIn.js"
import { client, peopleOf } from "../apiClient.js"
import { aliceUpdate, apiToken, closeIdle, drain, eventLog, Harness, layer, senderUpdate, telegram, telegramCalls } from "../harness.js"

/** `/web` from Alice (100000001) in the supergroup "Family". */
const webInGroup = JSON.stringify({
  update_id: 910001,
  message: {
    message_id: 41,
    from: { id: 100000001, is_bot: false, first_name: "Alice" },
    chat: { id: -1001234567890, type: "supergroup", title: "Family" },
    date: 1767225600,
    text: "/web"
  }
})

const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  Effect.flatMap(Harness, ({ baseUrl }) =>
    Effect.promise(async () => {
      const response = await fetch(`${baseUrl}${path}`, { method: "POST", body: new URLSearchParams(form), headers, redirect: "manual" })
      return { status: response.status, location: response.headers.get("location"), cookie: response.headers.get("set-cookie") }
    }))

describe("sign-in safety", () => {
  it.effect("/web in a group answers there with where to ask, and posts no link", () =>
    Effect.gen(function*() {
      expect(yield* telegram(webInGroup)).toEqual({ status: 200, body: "" })
      yield* drain
      const sent = (yield* telegramCalls).filter((c) => c.method === "sendMessage").map((c) => c.body as { chat_id: string; text: string })
      expect(sent.map((m) => [m.chat_id, m.text])).toEqual([["-1001234567890", ReplyText.webInGroupText]])
      expect((yield* eventLog).filter((line) => line.endsWith(" WebSignIn"))).toEqual([])
    }).pipe(Effect.provide(layer([]))))

  it.effect("next goes only to a plain path on this site; anything else goes home, never a 500", () =>
    Effect.gen(function*() {
      const nexts = ["/people/person_1?notice=x", "/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example", "/\u3000/evil.example", "//evil.example", "/\\evil.example", "https://evil.example", "people"]
      const locations = []
      for (const next of nexts) locations.push((yield* post("/signin", { token: apiToken, next })).location)
      expect(locations).toEqual(["/people/person_1?notice=x", "/", "/", "/", "/", "/", "/", "/", "/"])
    }).pipe(Effect.provide(layer([]))))

  it.effect("a form from another site is refused and changes nothing; the same form from this site signs in", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* Harness
      const refused = { status: 403, location: null, cookie: null }
      expect(yield* post("/signin", { token: apiToken }, { origin: "https://evil.example" })).toEqual(refused)
      expect(yield* post("/signin", { token: apiToken }, { "sec-fetch-site": "cross-site", origin: baseUrl })).toEqual(refused)
      expect(yield* post("/signin", { token: apiToken }, { origin: "null" })).toEqual(refused)
      expect(yield* post("/signin/link", { token: "any" }, { "sec-fetch-site": "same-site" })).toEqual(refused)
      expect((yield* post("/signin", { token: apiToken }, { origin: baseUrl })).status).toBe(303)
      expect((yield* post("/signin", { token: apiToken }, { "sec-fetch-site": "same-origin" })).status).toBe(303)
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(layer([]))))

  it.effect("the cookie is Secure when the site's public address is https", () =>
    Effect.gen(function*() {
      const signedIn = yield* post("/signin", { token: apiToken })
      expect(signedIn.cookie?.split("; ").slice(1)).toEqual(["Max-Age=43200", "Path=/", "HttpOnly", "Secure", "SameSite=Strict"])
    }).pipe(Effect.provide(layer([], { publicUrl: "https://notes.example.org" }))))

  it.effect("without https anywhere the cookie is not marked Secure (a browser would not send it back over http)", () =>
    Effect.gen(function*() {
      const signedIn = yield* post("/signin", { token: apiToken })
      expect(signedIn.cookie?.split("; ").slice(1)).toEqual(["Max-Age=43200", "Path=/", "HttpOnly", "SameSite=Strict"])
    }).pipe(Effect.provide(layer([]))))

  it.effect("a merged person's old address leads on only after sign-in, and only for a viewer who may see the person", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* Harness
      expect(yield* telegram(senderUpdate(100000002, 1, { text: "Ana plays chess." }))).toEqual({ status: 200, body: "" })
      expect(yield* telegram(senderUpdate(100000002, 2, { text: "Ana Souza moved to Porto." }))).toEqual({ status: 200, body: "" })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      const people = (yield* peopleOf("telegram:100000002")).items
      const [from, into] = ["Ana", "Ana Souza"].map((name) => PersonId.make(people.find((p) => p.name === name)?.id ?? ""))
      yield* client((c) => c.curation.mergePeople({ path: { id: from! }, payload: { into: into! } }))
      // Alice signs in with her own link.
      expect(yield* telegram(aliceUpdate(9, { text: "/web" }))).toEqual({ status: 200, body: "" })
      yield* drain
      const link = /(http:\/\/\S+)/.exec((yield* telegramCalls).map((c) => (c.body as { text?: string }).text ?? "").join("\n"))?.[1] ?? ""
      const alice = (yield* post("/signin/link", { token: new URL(link).searchParams.get("token") ?? "" })).cookie?.split(";")[0] ?? ""
      const operator = (yield* post("/signin", { token: apiToken })).cookie?.split(";")[0] ?? ""
      const visit = (cookie: string | null) =>
        Effect.promise(async () => {
          const response = await fetch(`${baseUrl}/people/${from}`, { headers: cookie === null ? {} : { cookie }, redirect: "manual" })
          return [response.status, response.headers.get("location")]
        })
      expect([yield* visit(null), yield* visit(alice), yield* visit(operator)]).toEqual([
        [303, `/signin?next=${encodeURIComponent(`/people/${from}`)}`],
        [404, null],
        [303, `/people/${into}`]
      ])
    }).pipe(Effect.provide(layer([planStep({
      ...emptyPlan,
      people: [
        { contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] },
        { contactId: null, name: "Ana Souza", notes: [{ sourceItemSeqs: [2], directives: [] }] }
      ]
    })]))))

  it.effect("a user taken off the allow-list is signed out at once: their cookie opens nothing more", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* Harness
      const { key } = yield* WebKeys
      const cookieOf = (user: string) => `verbatim_session=${issue(key, { _tag: "User", user: UserId.make(user) }, Date.now() + 3_600_000)}`
      const visit = (user: string) =>
        Effect.promise(async () => {
          const response = await fetch(`${baseUrl}/`, { headers: { cookie: cookieOf(user) }, redirect: "manual" })
          return [response.status, response.headers.get("location")]
        })
      yield* TestClock.setTime(Date.now())
      // The first is on the allow-list; the second was, when their cookie was made.
      expect([yield* visit("telegram:100000001"), yield* visit("telegram:100000999")]).toEqual([[200, null], [303, "/signin?next=%2F"]])
    }).pipe(Effect.provide(WebKeys.layer.pipe(Layer.provideMerge(layer([]))))))

  it.effect("signing out ends the sign-in on the server: a cookie copied before opens nothing after; everywhere ends every one", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* Harness
      const signInAs = Effect.map(post("/signin", { token: apiToken }), (r) => r.cookie?.split(";")[0] ?? "")
      const open = (cookie: string) =>
        Effect.promise(async () => {
          const response = await fetch(`${baseUrl}/`, { headers: { cookie }, redirect: "manual" })
          const page = await response.text()
          return { status: response.status, csrf: /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? "" }
        })
      const signOut = (cookie: string, path: "/signout" | "/signout/everywhere") =>
        Effect.flatMap(open(cookie), ({ csrf }) => Effect.map(post(path, { csrf }, { cookie }), (r) => r.status))
      const laptop = yield* signInAs
      yield* TestClock.adjust("1 second")
      const phone = yield* signInAs
      expect(yield* signOut(laptop, "/signout")).toBe(303)
      expect([(yield* open(laptop)).status, (yield* open(phone)).status]).toEqual([303, 200])
      expect(yield* signOut(phone, "/signout/everywhere")).toBe(303)
      expect((yield* open(phone)).status).toBe(303)
      // A sign-in after it works.
      yield* TestClock.adjust("1 second")
      expect((yield* open(yield* signInAs)).status).toBe(200)
      expect((yield* eventLog).filter((line) => line.endsWith("WebSignedOut"))).toEqual([
        "web-signout-operator#1 WebSignedOut",
        "web-signout-operator#2 WebSignedOut"
      ])
    }).pipe(Effect.provide(layer([]))))
})
