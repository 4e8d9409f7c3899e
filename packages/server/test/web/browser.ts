/**
 * Debian's Chromium for the page tests, driven by `puppeteer-core` (nothing is downloaded): a
 * browser for the test's scope, axe-core's serious violations of a page, and its screenshot in
 * `test-artifacts/web/`. Without Chromium, `chromium` is undefined and the suites skip, saying why.
 */
import { Effect } from "effect"
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import puppeteer, { type Browser, type Page } from "puppeteer-core"

export const chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path))
if (chromium === undefined) console.warn("web page tests skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)")

export const artifacts = new URL("../../../../test-artifacts/web/", import.meta.url)
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

const launch = Effect.promise(() => {
  mkdirSync(artifacts, { recursive: true })
  return puppeteer.launch({ executablePath: chromium!, args: ["--no-sandbox", "--disable-gpu"], headless: true })
})
const close = (open: Browser) => Effect.promise(() => open.close())

/** A browser for the length of `use`. */
export const browse = <A>(use: (browser: Browser) => Promise<A>) =>
  Effect.acquireUseRelease(launch, (open) => Effect.promise(() => use(open)), close)

/** A browser open for the rest of the test's scope. */
export const browser = Effect.acquireRelease(launch, close)

/** Serious or critical axe violations of the page, by rule id. */
export const violations = async (page: Page) => {
  await page.addScriptTag({ content: axeSource })
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: Array<{ id: string; impact: string | null }> }> } }).axe
    return (await axe.run()).violations
  })
  return result.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)
}

export const shoot = (page: Page, name: string) => page.screenshot({ path: new URL(`${name}.png`, artifacts).pathname as `${string}.png`, fullPage: true })

/** The page's accessibility problems and width, once photographed as `name`. */
export const looked = async (page: Page, name: string) => {
  const problems = await violations(page)
  await shoot(page, name)
  return { problems, width: await page.$eval("html", (root) => root.scrollWidth) }
}

/** The page photographed at 1280 px and at 360 px (`name-1280px`, `name-360px`): how wide it draws at each. */
export const shootWide = async (page: Page, name: string): Promise<ReadonlyArray<number>> => {
  const widths: Array<number> = []
  for (const width of [1280, 360]) {
    await page.setViewport({ width, height: 800 })
    await shoot(page, `${name}-${width}px`)
    widths.push(await page.$eval("html", (root) => root.scrollWidth))
  }
  return widths
}

/** Click what `selector` finds and wait for the page it leads to. */
export const submit = (page: Page, selector: string) => Promise.all([page.waitForNavigation({ timeout: 30_000 }), page.click(selector)])

/** Signed in as the operator, with the API token `token`, as the sign-in page asks. */
export const signInAsOperator = async (page: Page, baseUrl: string, token: string) => {
  await page.setBypassCSP(true)
  await page.setViewport({ width: 1024, height: 800 })
  await page.goto(`${baseUrl}/signin`)
  await page.type("#token", token)
  await submit(page, "main button[type=submit]")
}

/** `page` signed in with a user's cookie value, 360 px wide as a small phone is. */
export const narrowAs = async (page: Page, baseUrl: string, cookie: string) => {
  await page.setBypassCSP(true)
  await page.setViewport({ width: 360, height: 740 })
  await page.setCookie({ name: "verbatim_session", value: cookie, url: baseUrl })
  return page
}
