/**
 * "Paste a chat" in Chromium at 360 and 1280 px, by the page's own forms: the paste is previewed as
 * one message per WhatsApp line with its author, each page checked with axe-core, photographed and
 * no wider than the screen; the one button captures them into the open session, texts whole.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { apiToken, capturedTexts, Harness, layer } from "../harness.js"
import { browse, chromium, looked, signInAsOperator, submit } from "./browser.js"

const paste = [
  "[12:01, 05/12/2026] Ana: Moved to Porto!",
  "Starts at the clinic in May: the one by the river.",
  "[12:03, 05/12/2026] \u202a+351 912 345 678\u202c: Inês visits in June — “bring the cake” 👩🏽‍⚕️",
  "[12:04, 05/12/2026] Tom: A very long line without spaces to test wrapping: https://example.com/a/really/long/address/that/must/wrap/on/a/small/phone/screen"
].join("\n")

const texts = [
  "Moved to Porto!\nStarts at the clinic in May: the one by the river.",
  "Inês visits in June — “bring the cake” 👩🏽‍⚕️",
  "A very long line without spaces to test wrapping: https://example.com/a/really/long/address/that/must/wrap/on/a/small/phone/screen"
]

describe.skipIf(chromium === undefined)("paste a chat in Chromium", () => {
  it.effect("previews a WhatsApp paste message by message and captures it, at 360 and 1280 px", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* Harness
      const seen = yield* browse(async (browser) => {
        const page = await browser.newPage()
        await signInAsOperator(page, baseUrl, apiToken)
        const widths = []
        for (const width of [360, 1280]) {
          await page.setViewport({ width, height: 800 })
          await page.goto(`${baseUrl}/compose`)
          const compose = await looked(page, `p1-compose-paste-${width}px`)
          await page.$eval("#paste", (box, text) => ((box as unknown as { value: string }).value = text), paste)
          await submit(page, "form[data-paste] button[type=submit]")
          const authors = await page.$$eval("[data-pasted] [data-author]", (spans) => spans.map((s) => s.textContent))
          const shown = await page.$$eval("[data-pasted] [data-text]", (bodies) => bodies.map((b) => b.textContent))
          const button = await page.$eval("form[data-capture] button", (b) => b.textContent)
          const preview = await looked(page, `p2-paste-preview-${width}px`)
          await submit(page, "form[data-capture] button[type=submit]")
          const notice = await page.$eval("[role=status]", (p) => p.textContent)
          const open = await page.$$eval("[data-open] .body", (bodies) => bodies.map((b) => b.textContent))
          const after = await looked(page, `p3-pasted-${width}px`)
          widths.push({ width, compose, authors, shown, button, preview, notice, open, after })
        }
        return widths
      })
      const fine = (width: number) => ({ problems: [], width })
      expect(seen).toEqual([360, 1280].map((width, round) => ({
        width,
        compose: fine(width),
        authors: ["Forwarded from Ana", "Forwarded from +351 912 345 678", "Forwarded from Tom"],
        shown: texts,
        button: "Capture 3 messages",
        preview: fine(width),
        notice: "Captured the pasted messages, each on its own. Send more, or file them now.",
        open: round === 0 ? texts : [...texts, ...texts],
        after: fine(width)
      })))
      expect(yield* capturedTexts).toEqual([...texts, ...texts])
    }).pipe(Effect.provide(layer([]))), 90_000)
})
