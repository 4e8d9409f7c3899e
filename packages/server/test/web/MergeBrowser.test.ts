/**
 * Merging in a real Chromium, 1280 px and 360 px wide: the form starts on "Choose a person…", the
 * merge asks first and the confirmation merges, the notice's Undo gives Anna back her note, and
 * the list on Ana's page undoes a merge later. Each page checked with axe-core and photographed.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Page } from "puppeteer-core"
import { apiToken, Harness } from "../harness.js"
import { browse, chromium, shoot, signInAsOperator, submit, violations } from "./browser.js"
import { filed, planned } from "./MergeFixture.js"

const text = (page: Page, selector: string) => page.$eval(selector, (e) => e.textContent?.replace(/\s+/g, " ").trim())
const listed = (page: Page) => page.$$eval("[data-notes=live] .body", (bodies) => bodies.map((b) => b.textContent))

/** Merge Anna into Ana by the form and its confirmation, undo it by `undo`'s button; what each step showed. */
const mergeAndUndo = async (page: Page, baseUrl: string, width: number, undo: string) => {
  await page.setViewport({ width, height: 800 })
  await page.goto(`${baseUrl}/people/person_2`)
  const chosen = await page.$eval("#merge-into", (s) => (s as unknown as { value: string }).value)
  const formProblems = await violations(page)
  await shoot(page, `m1-merge-form-${width}px`)
  await page.select("#merge-into", "person_1")
  await submit(page, "[data-form=merge] button[type=submit]")
  const asked = { path: new URL(page.url()).pathname + new URL(page.url()).search, question: await text(page, "h1"), says: await text(page, "[data-merging]") }
  const confirmProblems = await violations(page)
  await shoot(page, `m2-confirm-${width}px`)
  await submit(page, "[data-form=confirm-merge] button[type=submit]")
  const merged = { path: new URL(page.url()).pathname, notice: await text(page, "[role=status]"), notes: await listed(page), list: await text(page, "[data-merged-in]") }
  const mergedProblems = await violations(page)
  await shoot(page, `m3-merged-${width}px`)
  const wide = await page.$eval("html", (root) => root.scrollWidth)
  await submit(page, undo)
  const undone = { path: new URL(page.url()).pathname, notice: await text(page, "[role=status]"), notes: await listed(page) }
  await shoot(page, `m4-undone-${width}px`)
  return { chosen, asked, merged, undone, wide, problems: [formProblems, confirmProblems, mergedProblems] }
}

describe.skipIf(chromium === undefined)("merge and undo in Chromium", () => {
  it.scoped("merges after the confirmation and undoes it, from the notice at 1280 px and from the list at 360 px", () =>
    Effect.gen(function*() {
      yield* filed
      const { baseUrl } = yield* Harness
      const seen = yield* browse(async (browser) => {
        const page = await browser.newPage()
        await signInAsOperator(page, baseUrl, apiToken)
        const desktop = await mergeAndUndo(page, baseUrl, 1280, "[role=status] [data-form=unmerge] button")
        const phone = await mergeAndUndo(page, baseUrl, 360, "[data-merged-in] [data-form=unmerge] button")
        return { desktop, phone }
      })
      const run = (wide: number) => ({
        chosen: "",
        asked: {
          path: "/people/person_2/merge?into=person_1",
          question: "Merge Anna (1 note) into Ana (2 notes)?",
          says: "Anna's notes will be filed under Ana, and a message that names Anna later will be too. You can undo it from Ana's page: Anna gets back the notes that were theirs."
        },
        merged: {
          path: "/people/person_1",
          notice: "Merged: their notes are here now. Undo",
          notes: ["Anna has a new dog.", "Ana's sister is a nurse.", "Ana moved to Porto."],
          list: "Anna Undo"
        },
        undone: { path: "/people/person_2", notice: "Merge undone: the notes that were theirs are back here.", notes: ["Anna has a new dog."] },
        wide,
        problems: [[], [], []]
      })
      expect(seen).toEqual({ desktop: run(1280), phone: run(360) })
    }).pipe(Effect.provide(planned)), 90_000)
})
