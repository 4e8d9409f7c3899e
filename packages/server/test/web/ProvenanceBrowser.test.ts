/**
 * Provenance and accent-blind finding in Chromium, at 1280 px and 360 px, by the pages' own links
 * and forms: "joao" finds João on the people page; his page, his note and its session say whom the
 * forwarded words came from; "reuniao" finds "Reunião" in the search with the same line. Each page
 * is checked with axe-core, photographed, and no wider than the screen.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import type { Page } from "puppeteer-core"
import { aliceUpdate, closeIdle, Harness, telegram } from "../harness.js"
import { browse, chromium, looked, submit } from "./browser.js"
import { alice, cookieOf, history, layerFor, plan } from "./SubjectAccessFixture.js"

const forwarded = ["Reunião com o João às 9h", "Ele muda-se para o Porto em maio"]

/** What a selector's elements read, spaces collapsed. */
const texts = (page: Page, selector: string) => page.$$eval(selector, (all) => all.map((e) => e.textContent?.replace(/\s+/g, " ").trim()))

describe.skipIf(chromium === undefined)("provenance and accent-blind finding in Chromium", () => {
  it.effect("finds João as joao and Reunião as reuniao, and every page with the forwarded words says they came from Carol", () =>
    Effect.gen(function*() {
      yield* history
      for (const [i, text] of forwarded.entries()) {
        const update = aliceUpdate(30 + i, { text, forward_origin: { type: "hidden_user", sender_user_name: "Carol", date: 1767225000 } })
        expect(yield* telegram(update)).toEqual({ status: 200, body: "" })
      }
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      const { baseUrl } = yield* Harness
      const cookie = (yield* cookieOf(alice)).slice("verbatim_session=".length)
      const walk = (width: number) =>
        browse(async (browser) => {
          const page = await browser.newPage()
          await page.setBypassCSP(true)
          await page.setViewport({ width, height: 800 })
          await page.setCookie({ name: "verbatim_session", value: cookie, url: baseUrl })
          await page.goto(`${baseUrl}/`)
          await page.type("#q", "joao")
          await submit(page, "form.search button[type=submit]")
          const found = await texts(page, "main ul.list li a")
          const people = await looked(page, `p1-find-joao-${width}px`)
          await submit(page, "main ul.list li a")
          const person = await texts(page, "[data-notes=live] [data-forwarded]")
          const personLook = await looked(page, `p2-person-forwarded-${width}px`)
          await submit(page, "[data-notes=live] li a")
          const note = await texts(page, "[data-body] [data-forwarded]")
          const noteLook = await looked(page, `p3-note-forwarded-${width}px`)
          await submit(page, "main a[href^='/sessions/']")
          const session = await texts(page, "[data-forwarded]")
          const sessionLook = await looked(page, `p4-session-forwarded-${width}px`)
          await page.goto(`${baseUrl}/search?q=${encodeURIComponent("reuniao JOAO")}`)
          const hits = await page.$$eval("[data-hit]", (all) =>
            all.map((hit) => [...hit.querySelectorAll("p, div")].map((e) => e.innerHTML.replace(/<mark>/g, "[").replace(/<\/mark>/g, "]").replace(/<[^>]+>/g, "").trim())))
          const searchLook = await looked(page, `p5-search-accents-${width}px`)
          return { found, people, person, personLook, note, noteLook, session, sessionLook, hits, searchLook }
        })
      const fine = (width: number) => ({ problems: [], width })
      for (const width of [1280, 360]) {
        expect(yield* walk(width)).toEqual({
          found: ["João Pires"],
          people: fine(width),
          person: ["Holds words forwarded from Carol"],
          personLook: fine(width),
          note: ["Forwarded from Carol", "Forwarded from Carol"],
          noteLook: fine(width),
          session: ["Forwarded from Carol", "Forwarded from Carol"],
          sessionLook: fine(width),
          hits: [["Forwarded from Carol", "[Reunião] com o [João] às 9h", "in a note about João Pires · all about João Pires"]],
          searchLook: fine(width)
        })
      }
    }).pipe(Effect.provide(layerFor("all", [planStep(plan), planStep({
      ...emptyPlan,
      people: [{ contactId: null, name: "João Pires", notes: [{ sourceItemSeqs: [1, 2], directives: [] }] }]
    })]))), 120_000)
})
