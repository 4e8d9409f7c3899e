/**
 * Curation in a real Chromium: merge two people, split a note, move the new half, discard and
 * restore it, all by the pages' own forms (no script), each page checked with axe-core and
 * photographed; then the read model rebuilt from the log matches what the pages changed.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan, type Plan } from "@verbatim/domain/Plan"
import { rebuildAndVerify } from "@verbatim/projections/Projections/Rebuild"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import type { Page } from "puppeteer-core"
import { notesOf } from "../apiClient.js"
import { aliceUpdate, apiToken, closeIdle, Harness, layer, telegram } from "../harness.js"
import { browse, chromium, shoot, violations } from "./browser.js"

const plan: Plan = {
  ...emptyPlan,
  people: [
    { contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1, 2], directives: [] }] },
    { contactId: null, name: "Ana Souza", notes: [{ sourceItemSeqs: [3], directives: [] }] },
    { contactId: null, name: "Tom", notes: [{ sourceItemSeqs: [4], directives: [] }] }
  ]
}

const texts = ["Ana moved to Porto.", "Tom's dog is called Rex.", "Ana Souza starts at the clinic on Monday.", "Tom plays chess."]

/** Submit the form marked `data-form=name`, after `fill`, and wait for the page it leads to. */
const submit = async (page: Page, name: string, fill: (page: Page) => Promise<unknown> = async () => undefined) => {
  await fill(page)
  await Promise.all([page.waitForNavigation(), page.click(`[data-form=${name}] button[type=submit]`)])
  return { path: new URL(page.url()).pathname, notice: await page.$eval("[role=status]", (p) => p.textContent) }
}

const listed = (page: Page, which = "live") => page.$$eval(`[data-notes=${which}] .body`, (bodies) => bodies.map((b) => b.textContent))

describe.skipIf(chromium === undefined)("curation in Chromium", () => {
  it.scoped("merge two people, split a note and move its half, discard and restore it; the log rebuilds what the pages show", () =>
    Effect.gen(function*() {
      for (const [i, text] of texts.entries()) expect(yield* telegram(aliceUpdate(i + 1, { text }))).toEqual({ status: 200, body: "" })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      const { baseUrl } = yield* Harness
      const seen = yield* browse(async (browser) => {
        const page = await browser.newPage()
        await page.setBypassCSP(true)
        await page.setViewport({ width: 1024, height: 800 })
        await page.goto(`${baseUrl}/signin`)
        await page.type("#token", apiToken)
        await Promise.all([page.waitForNavigation(), page.click("main button[type=submit]")])
        const people = await page.$$eval("main ul.list a", (as) => as.map((a) => a.textContent))
        await Promise.all([page.waitForNavigation(), page.click("main ul.list li:last-child a")])
        const personProblems = await violations(page)
        await shoot(page, "c1-person-forms")
        await Promise.all([page.waitForNavigation(), page.select("#merge-into", "person_2").then(() => page.click("[data-form=merge] button[type=submit]"))])
        const merged = await submit(page, "confirm-merge")
        const mergedNotes = await listed(page)
        const mergedProblems = await violations(page)
        await shoot(page, "c2-merged")
        // Ana's two-message note (the last listed, the oldest) split before its second message.
        await Promise.all([page.waitForNavigation(), page.click("[data-notes=live] li:last-child p a")])
        const noteProblems = await violations(page)
        await shoot(page, "c3-note-forms")
        const split = await submit(page, "split", (p) => p.select("#split-at", "2"))
        const splitBody = await page.$eval("[data-body]", (b) => b.textContent)
        const moved = await submit(page, "move", (p) => p.select("#move-to", "person:person_3"))
        const movedTitle = await page.$eval("h1", (h) => h.textContent)
        const discarded = await submit(page, "discard")
        const banner = await page.$eval("[data-discarded]", (p) => p.textContent)
        const discardedProblems = await violations(page)
        await shoot(page, "c4-discarded")
        await page.goto(`${baseUrl}/people/person_3`)
        const tomNotes = await listed(page)
        const tomDiscarded = await listed(page, "discarded")
        await shoot(page, "c5-person-discarded")
        await Promise.all([page.waitForNavigation(), page.click("[data-notes=discarded] a")])
        const restored = await submit(page, "restore")
        const history = await page.$$eval("[data-history] li", (items) => items.map((i) => i.textContent))
        await shoot(page, "c6-restored")
        await page.goto(`${baseUrl}/own`)
        const ownProblems = await violations(page)
        await shoot(page, "c8-own-notes")
        await page.goto(`${baseUrl}/sessions/telegram:100000001:100000001:1`)
        const dispositions = await page.$$eval("[data-disposition]", (spans) => spans.map((s) => [s.getAttribute("data-disposition"), s.textContent]))
        const plans = await page.$$eval("[data-plans] li", (items) => items.map((i) => i.textContent))
        const sessionProblems = await violations(page)
        await shoot(page, "c9-session")
        // The merged person's old address leads to whom they joined.
        await page.goto(`${baseUrl}/people/person_1`)
        const mergedAddress = new URL(page.url()).pathname
        await page.setViewport({ width: 360, height: 740 })
        await page.goto(`${baseUrl}${restored.path}`)
        await shoot(page, "c7-note-360px")
        const narrow = await page.$eval("html", (root) => root.scrollWidth)
        return {
          people, merged, mergedNotes, split, splitBody, moved, movedTitle, discarded, banner, tomNotes, tomDiscarded, restored, history, mergedAddress, narrow,
          dispositions, plans, problems: [personProblems, mergedProblems, noteProblems, discardedProblems, ownProblems, sessionProblems]
        }
      })
      expect(seen).toEqual({
        people: ["Tom", "Ana Souza", "Ana"],
        merged: { path: "/people/person_2", notice: "Merged: their notes are here now. Undo" },
        mergedNotes: ["Ana Souza starts at the clinic on Monday.", "Ana moved to Porto.\n\nTom's dog is called Rex."],
        split: { path: "/notes/note_4", notice: "Split: this is the new note, from message 2 on." },
        splitBody: "Tom's dog is called Rex.",
        moved: { path: "/notes/note_4", notice: "Moved." },
        movedTitle: "Note about Tom",
        discarded: { path: "/notes/note_4", notice: "Discarded. Its messages are kept; restore it any time." },
        banner: "Discarded on 1 January 1970, 00:00 (UTC): not among Tom's notes. Nothing of it is lost.",
        tomNotes: ["Tom plays chess."],
        tomDiscarded: ["Tom's dog is called Rex."],
        restored: { path: "/notes/note_4", notice: "Restored." },
        history: ["split from another note", "moved to Tom", "discarded", "restored"].map((step) => `1 January 1970, 00:00 (UTC): ${step}`),
        mergedAddress: "/people/person_2",
        narrow: 360,
        dispositions: [
          ["InNote", "in a note about Ana Souza"],
          ["InNote", "in a note about Tom"],
          ["InNote", "in a note about Ana Souza"],
          ["InNote", "in a note about Tom"]
        ],
        plans: ["plan_1: messages 1–4, prompt v2, scripted, 0 in / 0 out"],
        problems: [[], [], [], [], [], []]
      })
      const tom = yield* notesOf("person_3")
      expect(tom.items.map((n) => n.body)).toEqual(["Tom plays chess.", "Tom's dog is called Rex."])
      expect((yield* rebuildAndVerify).differing).toEqual([])
    }).pipe(Effect.provide(layer([planStep(plan)]))), 60_000)
})
