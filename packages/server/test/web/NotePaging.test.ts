/**
 * A person's page and the own page list 50 notes at a time, newest first, and link to the older
 * ones: every note is reachable from the web, each listed exactly once across the pages. In
 * Chromium, the links followed at 1280 and 360 px, each page checked with axe and photographed.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { aliceUpdate, apiToken, closeIdle, Harness, telegram } from "../harness.js"
import { browse, chromium, shoot, signInAsOperator, submit, violations } from "./browser.js"
import { unescapeHtml } from "../unescapeHtml.js"
import { alice, cookieOf, fetchWith, layerFor } from "./SubjectAccessFixture.js"

/** Alice's 55 messages about Ana, then 52 of her own thoughts, each planned as a note of its own. */
const aboutAna = Array.from({ length: 55 }, (_, i) => `Ana, day ${i + 1}`)
const own = Array.from({ length: 52 }, (_, i) => `A thought, ${i + 1}`)
const seqs = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ sourceItemSeqs: [from + i], directives: [] }))
const plan = {
  ...emptyPlan,
  people: [{ contactId: null, name: "Ana", notes: seqs(1, aboutAna.length) }],
  unattached: seqs(aboutAna.length + 1, own.length)
}

const captured = Effect.gen(function*() {
  for (const [i, text] of [...aboutAna, ...own].entries()) {
    expect(yield* telegram(aliceUpdate(100 + i, { text }))).toEqual({ status: 200, body: "" })
  }
  expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
})

/** A page's count line, its live notes' bodies, and where its Older and Newest links go. */
const listed = (body: string) => {
  const list = (which: string) =>
    [...(new RegExp(`<ul class="list" data-notes="${which}">([\\s\\S]*?)</ul>`).exec(body)?.[1] ?? "").matchAll(/<div class="body">([\s\S]*?)<\/div>/g)]
      .map((m) => unescapeHtml(m[1]!))
  return {
    count: /<p class="muted">(\d+ notes?[^<]*)<\/p>/.exec(body)?.[1] ?? null,
    live: list("live"),
    older: /<a href="([^"]*)" data-older>Older notes<\/a>/.exec(body)?.[1] ?? null,
    newest: /<a href="([^"]*)" data-newest>Newest notes<\/a>/.exec(body)?.[1] ?? null
  }
}

describe("notes a page at a time", () => {
  it.effect("a person's page shows the newest 50 and links to the older ones, whose page links back", () =>
    Effect.gen(function*() {
      yield* captured
      const cookie = yield* cookieOf(alice)
      const ana = /href="\/people\/([^"]+)"/.exec((yield* fetchWith(cookie, "/")).body)![1]!
      const first = listed((yield* fetchWith(cookie, `/people/${ana}`)).body)
      const second = listed((yield* fetchWith(cookie, unescapeHtml(first.older!))).body)
      const newestFirst = [...aboutAna].reverse()
      expect(first).toEqual({ count: "55 notes, the newest 50 shown", live: newestFirst.slice(0, 50), older: expect.stringMatching(new RegExp(`^/people/${ana}\\?before=\\d+$`)), newest: null })
      expect(second).toEqual({ count: "55 notes, older ones shown", live: newestFirst.slice(50), older: null, newest: `/people/${ana}` })
      // A cursor that is not a position asks for the first page.
      expect(listed((yield* fetchWith(cookie, `/people/${ana}?before=x1`)).body)).toEqual(first)
    }).pipe(Effect.provide(layerFor("all", [planStep(plan)]))), 60_000)

  it.effect("the own page pages the same way", () =>
    Effect.gen(function*() {
      yield* captured
      const cookie = yield* cookieOf(alice)
      const first = listed((yield* fetchWith(cookie, "/own")).body)
      const second = listed((yield* fetchWith(cookie, unescapeHtml(first.older!))).body)
      const newestFirst = [...own].reverse()
      expect([first.live, second.live, second.older, second.newest]).toEqual([newestFirst.slice(0, 50), newestFirst.slice(50), null, "/own"])
      expect(first.older).toMatch(/^\/own\?before=\d+$/)
    }).pipe(Effect.provide(layerFor("all", [planStep(plan)]))), 60_000)

  it.effect("a list of exactly 50 offers no older page, and an empty own page only says so", () =>
    Effect.gen(function*() {
      const fifty = aboutAna.slice(0, 50)
      for (const [i, text] of fifty.entries()) {
        expect(yield* telegram(aliceUpdate(100 + i, { text }))).toEqual({ status: 200, body: "" })
      }
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      const cookie = yield* cookieOf(alice)
      const ana = /href="\/people\/([^"]+)"/.exec((yield* fetchWith(cookie, "/")).body)![1]!
      expect(listed((yield* fetchWith(cookie, `/people/${ana}`)).body)).toEqual({ count: "50 notes", live: [...fifty].reverse(), older: null, newest: null })
      const ownPage = (yield* fetchWith(cookie, "/own")).body
      expect([ownPage.includes("<p class=\"muted\">None yet.</p>"), ownPage.includes("data-notes=")]).toEqual([true, false])
    }).pipe(Effect.provide(layerFor("all", [planStep({ ...emptyPlan, people: [{ contactId: null, name: "Ana", notes: seqs(1, 50) }] })]))), 60_000)
})

describe.skipIf(chromium === undefined)("notes a page at a time in Chromium", () => {
  it.effect("Older notes and Newest notes lead between the pages at 1280 and 360 px, with no accessibility violation", () =>
    Effect.gen(function*() {
      yield* captured
      const { baseUrl } = yield* Harness
      const seen = yield* browse(async (browser) => {
        const page = await browser.newPage()
        await signInAsOperator(page, baseUrl, apiToken)
        const bodies = () => page.$$eval("[data-notes=live] .body", (found) => found.map((b) => b.textContent))
        const visits = []
        for (const width of [1280, 360]) {
          await page.setViewport({ width, height: 800 })
          await page.goto(`${baseUrl}/`)
          await submit(page, "main a[href^='/people/']")
          const first = { notes: await bodies(), problems: await violations(page) }
          await submit(page, "a[data-older]")
          const older = { notes: await bodies(), problems: await violations(page), wide: await page.$eval("html", (root) => root.scrollWidth) }
          await shoot(page, `n1-older-notes-${width}px`)
          await submit(page, "a[data-newest]")
          visits.push({ first, older, back: await bodies() })
        }
        return visits
      })
      const newestFirst = [...aboutAna].reverse()
      expect(seen).toEqual([1280, 360].map((width) => ({
        first: { notes: newestFirst.slice(0, 50), problems: [] },
        older: { notes: newestFirst.slice(50), problems: [], wide: width },
        back: newestFirst.slice(0, 50)
      })))
    }).pipe(Effect.provide(layerFor("all", [planStep(plan)]))), 120_000)
})
