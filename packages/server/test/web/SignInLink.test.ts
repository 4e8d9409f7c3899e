/**
 * The sign-in link `/web` sends, on the live clock: the link the fake Telegram received opens its
 * sign-in page over plain HTTP and in Chromium, whatever the token's length, and an unknown path
 * is a page that says what happened and where to go, never an empty 404.
 */
import { describe, expect, it } from "@effect/vitest"
import { UserId } from "@verbatim/domain/Ids"
import * as ReplyText from "@verbatim/domain/ReplyText"
import { Effect, Layer, TestClock } from "effect"
import { aliceUpdate, drain, Harness, layer, telegram, telegramCalls } from "../harness.js"
import { linkToken } from "../../src/Web/Links.js"
import { WebKeys } from "../../src/Web/SignIn.js"
import { browse, chromium, shootWide, violations } from "./browser.js"

/** `/web` from Alice on the real clock, and the one link the bot sent back. */
const linkFromTheBot = Effect.gen(function*() {
  yield* TestClock.setTime(Date.now())
  expect(yield* telegram(aliceUpdate(7, { text: "/web" }))).toEqual({ status: 200, body: "" })
  yield* drain
  const texts = (yield* telegramCalls).filter((c) => c.method === "sendMessage").map((c) => (c.body as { text: string }).text)
  const link = /(http:\/\/\S+)/.exec(texts.join("\n"))?.[1] ?? "no link sent"
  expect(texts).toEqual([ReplyText.webLinkText(link, 10)])
  return link
})

const get = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual" })
    return { status: response.status, type: response.headers.get("content-type"), body: await response.text() }
  })

/** The token in the form a link page shows. */
const formToken = (body: string) => /name="token" value="([^"]*)"/.exec(body)?.[1] ?? "no form"

const signInWith = (baseUrl: string, token: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${baseUrl}/signin/link`, { method: "POST", body: new URLSearchParams({ token }), redirect: "manual" })
    return { status: response.status, location: response.headers.get("location"), signedIn: response.headers.get("set-cookie")?.startsWith("verbatim_session=u") ?? false }
  })

describe("the sign-in link", () => {
  it.scoped("sent on today's clock, it opens its sign-in page, and the page's button signs in", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* Harness
      const link = yield* linkFromTheBot
      const opened = yield* get(link)
      const token = formToken(opened.body)
      expect({ status: opened.status, type: opened.type, sameToken: link.endsWith(token), longerThanARouteParameter: token.length > 100 })
        .toEqual({ status: 200, type: "text/html; charset=utf-8", sameToken: true, longerThanARouteParameter: true })
      expect(yield* signInWith(baseUrl, token)).toEqual({ status: 303, location: "/", signedIn: true })
    }).pipe(Effect.provide(layer([]))), 30_000)

  it.scoped("no user id's length and no expiry makes a live link a 404", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* Harness
      const { key } = yield* WebKeys
      yield* TestClock.setTime(Date.now())
      const longest = UserId.make(`whatsapp:${"9".repeat(64)}`)
      const tokens = [
        linkToken(key, UserId.make("telegram:100000001"), 0, "n".repeat(22)),
        linkToken(key, longest, Date.now() + 600_000, "n".repeat(22)),
        linkToken(key, longest, 8_640_000_000_000_000, "n".repeat(22))
      ]
      const opened = []
      for (const token of tokens) {
        const page = yield* get(`${baseUrl}/signin/link?token=${token}`)
        opened.push([page.status, formToken(page.body) === token])
      }
      // The expired one says so at once; the others show their button.
      expect(opened).toEqual([[404, false], [200, true], [200, true]])
      // Signed, but never sent by the bot (no /web asked for it): its button signs no one in, nor does the expired one's.
      expect([(yield* signInWith(baseUrl, tokens[1]!)).status, (yield* signInWith(baseUrl, tokens[0]!)).status]).toEqual([401, 401])
    }).pipe(Effect.provide(WebKeys.layer.pipe(Layer.provideMerge(layer([]))))), 30_000)

  it.scoped("a new link voids the one before: only the newest signs in", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* Harness
      yield* TestClock.setTime(Date.now())
      for (const id of [21, 22]) expect(yield* telegram(aliceUpdate(id, { text: "/web" }))).toEqual({ status: 200, body: "" })
      yield* drain
      const tokens = (yield* telegramCalls).flatMap((c) => {
        const link = /(http:\/\/\S+)/.exec((c.body as { text?: string }).text ?? "")?.[1]
        return link === undefined ? [] : [new URL(link).searchParams.get("token") ?? ""]
      })
      expect(tokens.length).toBe(2)
      expect([(yield* signInWith(baseUrl, tokens[0]!)).status, (yield* signInWith(baseUrl, tokens[1]!)).status]).toEqual([401, 303])
    }).pipe(Effect.provide(layer([]))), 30_000)

  it.scoped("at most five links an hour: forty /web in a row send five links and one notice; redeliveries send nothing; the next hour sends again", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.now())
      const sent = Effect.map(telegramCalls, (calls) =>
        calls.filter((c) => c.method === "sendMessage").map((c) => ((c.body as { text: string }).text.startsWith("Your notes on the web: ") ? "link" : (c.body as { text: string }).text)))
      for (let id = 100; id < 140; id++) expect(yield* telegram(aliceUpdate(id, { text: "/web" }))).toEqual({ status: 200, body: "" })
      for (const id of [104, 105, 139]) expect(yield* telegram(aliceUpdate(id, { text: "/web" }))).toEqual({ status: 200, body: "" })
      yield* drain
      const notice = ReplyText.webLimitText(5)
      expect(notice).toBe("That is 5 sign-in links this hour, the most I send: the newest still works until it expires. Ask again in an hour for another.")
      expect(yield* sent).toEqual(["link", "link", "link", "link", "link", notice])
      yield* TestClock.adjust("61 minutes")
      expect(yield* telegram(aliceUpdate(140, { text: "/web" }))).toEqual({ status: 200, body: "" })
      yield* drain
      expect(yield* sent).toEqual(["link", "link", "link", "link", "link", notice, "link"])
    }).pipe(Effect.provide(layer([]))), 30_000)

  it.scoped("an unknown page says what happened and where to go; a broken link says to send /web again", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* Harness
      const pages = []
      for (const path of ["/no/such/page", `/signin/link/${"x".repeat(140)}`, "/signin/link", "/signin/link?token="]) {
        const page = yield* get(`${baseUrl}${path}`)
        pages.push([page.status, page.type, /<main[^>]*>([\s\S]*)<\/main>/.exec(page.body)?.[1]?.trim()])
      }
      const html = "text/html; charset=utf-8"
      const missing = `<h1>Not found</h1>\n<p>There is no page at this address.</p>\n<p><a href="/">Go to your notes</a></p>`
      const broken = `<h1>This link has expired or was used</h1>\n<p>Send /web to the bot for a new one.</p>\n<p><a href="/signin">Sign in another way</a></p>`
      expect(pages).toEqual([[404, html, missing], [404, html, broken], [404, html, broken], [404, html, broken]])
      // The API keeps answering in JSON. Sent raw: the route is not in the contract, and the status and type are the point.
      const api = yield* get(`${baseUrl}/api/no-such-thing`)
      expect([api.status, api.type]).toEqual([404, "application/json"])
    }).pipe(Effect.provide(layer([]))), 30_000)

  describe.skipIf(chromium === undefined)("in Chromium", () => {
    it.scoped("the link the chat shows, tapped on today's clock, signs in", () =>
      Effect.gen(function*() {
        const { baseUrl } = yield* Harness
        const link = yield* linkFromTheBot
        const seen = yield* browse(async (browser) => {
          const page = await browser.newPage()
          await page.setBypassCSP(true)
          const opened = await page.goto(link)
          const linkWidths = await shootWide(page, "12-link-live-clock")
          const problems = await violations(page)
          await Promise.all([page.waitForNavigation(), page.click("main button[type=submit]")])
          const landed = page.url()
          const heading = await page.$eval("h1", (h) => h.textContent)
          const stale = await page.goto(`${baseUrl}/signin/link/${"x".repeat(140)}`)
          const brokenWidths = await shootWide(page, "13-link-broken")
          return {
            opened: opened?.status(),
            problems,
            landed,
            heading,
            stale: stale?.status(),
            staleHeading: await page.$eval("h1", (h) => h.textContent),
            widths: [linkWidths, brokenWidths]
          }
        })
        expect(seen).toEqual({
          opened: 200,
          problems: [],
          landed: `${baseUrl}/`,
          heading: "People",
          stale: 404,
          staleHeading: "This link has expired or was used",
          // Photographed at 1280 px and 360 px, neither page wider than the screen.
          widths: [[1280, 360], [1280, 360]]
        })
      }).pipe(Effect.provide(layer([]))), 60_000)
  })
})
