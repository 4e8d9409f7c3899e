/**
 * `/docs` in a real Chromium: every request the page makes (its CSP bypassed, so whatever it
 * tries is seen) goes to this server, none to a font or script host elsewhere; under its own CSP
 * it renders with no violation, and shows the version `verbatim --version` prints.
 */
import { describe, expect, it } from "@effect/vitest"
import { version } from "@verbatim/domain/Version"
import { Effect } from "effect"
import type { Page } from "puppeteer-core"
import { Harness, layer } from "../harness.js"
import { browse, chromium, shoot } from "./browser.js"

/** Open `/docs` until the network is idle and the reference is drawn, recording every URL the page asks for and every CSP refusal or error. */
const load = async (page: Page, url: string) => {
  const requested: Array<string> = []
  const refused: Array<string> = []
  page.on("request", (request) => requested.push(request.url()))
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) refused.push(message.text())
  })
  page.on("pageerror", (error) => refused.push(String(error)))
  await page.goto(url, { waitUntil: "networkidle0", timeout: 60_000 })
  // The page's own globals, typed here (the tests compile without the DOM's types).
  const text = () => (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText
  await page.waitForFunction(`${text.toString()}().includes(${JSON.stringify(`v${version}`)})`, { timeout: 30_000 })
  return { requested, refused, shown: await page.evaluate(text) }
}

describe.skipIf(chromium === undefined)("/docs in Chromium", () => {
  it.effect("asks nothing of any other host, breaks none of its CSP, and shows the CLI's version", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* Harness
      const origin = new URL(baseUrl).origin
      const [bypassed, strict] = yield* browse(async (browser) => {
        const open = await browser.newPage()
        await open.setBypassCSP(true)
        const seen = await load(open, `${baseUrl}/docs`)
        await shoot(open, "api-docs")
        return [seen, await load(await browser.newPage(), `${baseUrl}/docs`)] as const
      })
      const elsewhere = (urls: ReadonlyArray<string>) => urls.filter((url) => !url.startsWith("data:") && new URL(url).origin !== origin)
      const versions = (shown: string) => shown.split("\n").filter((line) => /^v\d/.test(line))
      expect({
        first: bypassed.requested[0],
        elsewhere: elsewhere(bypassed.requested),
        strictElsewhere: elsewhere(strict.requested),
        refused: [...bypassed.refused, ...strict.refused],
        versions: [versions(bypassed.shown), versions(strict.shown)]
      }).toEqual({ first: `${baseUrl}/docs`, elsewhere: [], strictElsewhere: [], refused: [], versions: [["v0.1.0"], ["v0.1.0"]] })
    }).pipe(Effect.provide(layer([]))), { timeout: 120_000 })
})
