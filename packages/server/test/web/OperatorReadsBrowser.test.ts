/**
 * The operator-reads pages in Chromium, each checked with axe-core and photographed: under `none`
 * the operator's people page with other users as counts and another user's note refused; under
 * `audited` Alice's own page listing what the operator read.
 */
import { describe, expect, it } from "@effect/vitest"
import { UserId } from "@verbatim/domain/Ids"
import { notReadMessage } from "@verbatim/domain/OperatorReads/Mode"
import { Effect } from "effect"
import { issue, WebKeys } from "../../src/Web/SignIn.js"
import { apiToken, Harness } from "../harness.js"
import { alice, history, ids, pagesLayerFor } from "../operatorReadsFixture.js"
import { browse, chromium, narrowAs, shoot, signInAsOperator, violations } from "./browser.js"

describe.skipIf(chromium === undefined)("operator reads in Chromium", () => {
  it.effect("none: the people page counts other users, another user's note is refused, both without an accessibility violation", () =>
    Effect.gen(function*() {
      yield* history
      const { baseUrl } = yield* Harness
      const seen = yield* browse(async (browser) => {
        const page = await browser.newPage()
        await signInAsOperator(page, baseUrl, apiToken)
        const others = await page.$$eval("[data-others] li", (items) => items.map((i) => i.textContent))
        const peopleProblems = await violations(page)
        await shoot(page, "r1-people-others-counted")
        const response = await page.goto(`${baseUrl}/notes/${ids.anaNote}`)
        const refused = await page.$eval("[data-refused]", (p) => p.textContent)
        const refusedProblems = await violations(page)
        await shoot(page, "r2-note-not-shown")
        return { others, peopleProblems, status: response?.status(), refused, refusedProblems }
      })
      expect(seen).toEqual({
        others: [`${alice} 1 person, 1 note`],
        peopleProblems: [],
        status: 403,
        refused: notReadMessage,
        refusedProblems: []
      })
    }).pipe(Effect.provide(pagesLayerFor("none"))), 60_000)

  it.effect("audited: Alice's page lists the operator's reads of her people and her note, newest first, at 360 px", () =>
    Effect.gen(function*() {
      yield* history
      const { baseUrl } = yield* Harness
      const { key } = yield* WebKeys
      const cookie = issue(key, { _tag: "User", user: UserId.make(alice) }, Date.now() + 3_600_000)
      const seen = yield* browse(async (browser) => {
        const operator = await browser.newPage()
        await signInAsOperator(operator, baseUrl, apiToken)
        await operator.goto(`${baseUrl}/notes/${ids.anaNote}`)
        const page = await narrowAs(await browser.createBrowserContext().then((context) => context.newPage()), baseUrl, cookie)
        await page.goto(`${baseUrl}/reads`)
        const reads = await page.$$eval("[data-read]", (items) => items.map((i) => i.textContent))
        const problems = await violations(page)
        await shoot(page, "r3-reads-360px")
        const narrow = await page.$eval("html", (root) => root.scrollWidth)
        return { reads, problems, narrow }
      })
      expect(seen).toEqual({
        // Signing in lands on the people page: a read of Alice's people too.
        reads: [
          `The operator read your notes on 1 January 1970, 00:00 (UTC): a note (GET /notes/${ids.anaNote})`,
          "The operator read your notes on 1 January 1970, 00:00 (UTC): your people list (1 person) (GET /)"
        ],
        problems: [],
        narrow: 360
      })
    }).pipe(Effect.provide(pagesLayerFor("audited"))), 60_000)
})
