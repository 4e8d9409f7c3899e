/**
 * The banner every signed-in page shows while what is sent cannot be filed: no model key, or
 * planning held on an operator's error; none once planning works. Photographed in Chromium at
 * 1280 and 360 px.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan } from "@verbatim/domain/Plan"
import { FakeAnthropic, FakeReply } from "@verbatim/testkit/FakeAnthropic"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { waitingSafe } from "../../src/Web/Banner.js"
import { aliceUpdate, apiToken, closeIdle, Harness, layer, layerOver, revokedKeyModel, telegram } from "../harness.js"
import { browse, chromium, shoot, violations } from "./browser.js"

/** The banner on each page, by path, for the operator. */
const banners = (paths: ReadonlyArray<string>) =>
  Effect.flatMap(Harness, ({ baseUrl }) =>
    Effect.promise(async () => {
      const signIn = await fetch(`${baseUrl}/signin`, { method: "POST", body: new URLSearchParams({ token: apiToken }), redirect: "manual" })
      const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!
      const found = []
      for (const path of paths) {
        const page = await (await fetch(`${baseUrl}${path}`, { headers: { cookie } })).text()
        found.push(/<p role="status" class="banner">([^<]*)<\/p>/.exec(page)?.[1] ?? null)
      }
      return found
    }))

const twoMessages = Effect.gen(function*() {
  expect(yield* telegram(aliceUpdate(1, { text: "Ana moved to Porto." }))).toEqual({ status: 200, body: "" })
  expect(yield* telegram(aliceUpdate(2, { text: "She starts in May." }))).toEqual({ status: 200, body: "" })
  return yield* closeIdle
})

const pages = ["/", "/own", "/questions", "/search", "/compose"]

describe("the not-filed banner", () => {
  it.effect("with no model key every page says so and how many messages wait, safe", () =>
    Effect.gen(function*() {
      expect(yield* banners(["/"])).toEqual(["Not filed yet: no model key is set. What you send is kept, and will be filed once it is."])
      expect(yield* twoMessages).toEqual({ closed: 1, planned: 0 })
      const said = "Not filed yet: no model key is set. Your 2 messages are safe, and will be filed once it is."
      expect(yield* banners(pages)).toEqual(pages.map(() => said))
    }).pipe(Effect.provide(layer([], { noModel: true }))))

  it("counts waiting messages up to 10,000 and says more than that past it", () => {
    expect([1, 2, 9_999, 10_000, 10_001].map(waitingSafe)).toEqual([
      "Your 1 message is safe",
      "Your 2 messages are safe",
      "Your 9,999 messages are safe",
      "Your 10,000 messages are safe",
      "More than 10,000 of your messages are safe"
    ])
  })

  it.effect("while planning is held on a refused key, the operator's pages say why", () =>
    Effect.gen(function*() {
      yield* Effect.flatMap(FakeAnthropic, (fake) => fake.script(FakeReply.unauthorized()))
      expect(yield* twoMessages).toEqual({ closed: 1, planned: 0 })
      expect(yield* banners(["/"])).toEqual([
        "Not filed yet: planning held: the model provider refused the API key (ANTHROPIC_API_KEY) (HTTP 401): " +
        "401 {&quot;type&quot;:&quot;error&quot;,&quot;error&quot;:{&quot;type&quot;:&quot;authentication_error&quot;,&quot;message&quot;:&quot;fake authentication_error&quot;}}. " +
        "Your 2 messages are safe, and will be filed once that is fixed."
      ])
    }).pipe(Effect.provide(layerOver(revokedKeyModel))))

  it.effect("once planning works there is no banner", () =>
    Effect.gen(function*() {
      expect(yield* twoMessages).toEqual({ closed: 1, planned: 1 })
      expect(yield* banners(pages)).toEqual(pages.map(() => null))
    }).pipe(Effect.provide(layer([planStep({ ...emptyPlan, unattached: [{ sourceItemSeqs: [1, 2], directives: [] }] })]))))

  describe.skipIf(chromium === undefined)("in Chromium", () => {
    it.effect("reads as a status at 1280 and 360 px, with no accessibility violation", () =>
      Effect.gen(function*() {
        yield* twoMessages
        const { baseUrl } = yield* Harness
        const seen = yield* browse(async (browser) => {
          const page = await browser.newPage()
          await page.setBypassCSP(true)
          await page.setViewport({ width: 1280, height: 800 })
          await page.goto(`${baseUrl}/signin`)
          await page.type("#token", apiToken)
          await Promise.all([page.waitForNavigation(), page.click("main button[type=submit]")])
          const text = await page.$eval("[role=status].banner", (p) => p.textContent)
          const problems = await violations(page)
          await shoot(page, "14-banner-no-model")
          await page.setViewport({ width: 360, height: 740 })
          await shoot(page, "14-banner-no-model-360px")
          const narrow = await page.$eval("html", (root) => root.scrollWidth)
          return { text, problems, narrow }
        })
        expect(seen).toEqual({
          text: "Not filed yet: no model key is set. Your 2 messages are safe, and will be filed once it is.",
          problems: [],
          narrow: 360
        })
      }).pipe(Effect.provide(layer([], { noModel: true }))), 60_000)
  })
})
