/**
 * Capturing from the page in Chromium: a user signed in by their bot link pastes three messages,
 * files them, and sees the bot's reply and the note, each message's text whole; the same form sent
 * twice records once; a message the store cannot keep is refused on the page with the text kept.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan, type Plan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import type { Page } from "puppeteer-core"
import { peopleOf } from "../apiClient.js"
import { aliceUpdate, capturedTexts, closeIdle, drain, eventLog, Harness, layer, telegram, telegramCalls } from "../harness.js"
import { PlanTrigger } from "../../src/Planning/PlanTrigger.js"
import { browser, chromium, shoot, shootWide, violations } from "./browser.js"

const plan: Plan = {
  ...emptyPlan,
  people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1, 2, 3], directives: [] }] }]
}

const pasted = [
  "Ana moved to Porto.\nShe starts at the clinic in May.",
  "Her sister Inês visits in June — “bring the cake”",
  "Ana’s number: +351 912 345 678 👩🏽‍⚕️"
]

// Each browser closes in the test's own scope, before the server it keeps connections to shuts down.

/** The sign-in link the bot sent in reply to `/web`. */
const webLink = Effect.gen(function*() {
  expect(yield* telegram(aliceUpdate(50, { text: "/web" }))).toEqual({ status: 200, body: "" })
  yield* drain
  const texts = (yield* telegramCalls).map((c) => (c.body as { text?: string }).text ?? "")
  return /(http:\/\/\S+\/signin\/link\?token=\S+)/.exec(texts.join("\n"))?.[1] ?? "no link sent"
})

const submit = (page: Page, selector: string) => Promise.all([page.waitForNavigation(), page.click(selector)])

const write = async (page: Page, text: string, button: "send" | "file") => {
  await page.$eval("#text", (box) => ((box as unknown as { value: string }).value = ""))
  await page.type("#text", text)
  await submit(page, `form.compose button[value=${button}]`)
}

describe.skipIf(chromium === undefined)("capture from the page in Chromium", () => {
  it.effect("pastes three messages, files them, and shows the reply and the note with every message whole", () =>
    Effect.gen(function*() {
      const link = yield* webLink
      const { baseUrl } = yield* Harness
      const open = yield* browser
      const page = yield* Effect.promise(() => open.newPage())
      const before = yield* Effect.promise(async () => {
        await page.setBypassCSP(true)
        await page.goto(link)
        await submit(page, "main button[type=submit]")
        await page.goto(`${baseUrl}/compose`)
        const emptyProblems = await violations(page)
        const widths = [await shootWide(page, "12-compose")]
        const firstId = await page.$eval("form.compose input[name=id]", (input) => (input as unknown as { value: string }).value)
        const csrf = await page.$eval("form.compose input[name=csrf]", (input) => (input as unknown as { value: string }).value)
        await write(page, pasted[0]!, "send")
        // The same form sent again (a double click, a resubmit): nothing more is recorded.
        const resent = await page.evaluate(async (fields) => {
          const reply = await fetch("/compose", { method: "POST", body: new URLSearchParams(fields) })
          return new URL(reply.url).search
        }, { csrf, id: firstId, text: pasted[0]!, then: "send" })
        await write(page, pasted[1]!, "send")
        const inSession = await page.$$eval("[data-open] .body", (bodies) => bodies.map((b) => b.textContent))
        const openProblems = await violations(page)
        widths.push(await shootWide(page, "13-compose-open-session"))
        await write(page, pasted[2]!, "file")
        const notice = await page.$eval("[role=status]", (p) => p.textContent)
        const help = await page.$eval("#compose-help", (p) => p.textContent)
        return { emptyProblems, resent, inSession, openProblems, notice, help, widths }
      })
      expect(before).toEqual({
        emptyProblems: [],
        resent: "?notice=again",
        inSession: pasted.slice(0, 2),
        openProblems: [],
        notice: "Filing now: the bot's reply appears below as soon as it is made (without scripts, reload the page).",
        // A session on the page waits a quarter of an hour of quiet (VERBATIM_WEB_SESSION_IDLE_SECONDS), not a chat's 30 seconds.
        help: "Each message is kept exactly as you type or paste it. Send one or several; they are filed together when you file them, or after 15 minutes of quiet.",
        // The empty page and the open session, photographed at 1280 px and 360 px, neither wider than the screen.
        widths: [[1280, 360], [1280, 360]]
      })
      expect(yield* capturedTexts).toEqual(pasted)
      expect(yield* closeIdle).toEqual({ closed: 0, planned: 1 })
      expect(yield* drain).toEqual({ sent: 1, failed: 0, held: 0 })
      const after = yield* Effect.promise(async () => {
        await page.reload()
        const replies = await page.$$eval("[data-replies] .body", (bodies) => bodies.map((b) => b.textContent))
        const inSession = await page.$$eval("[data-open]", (lists) => lists.length)
        const filedWidths = await shootWide(page, "14-compose-filed")
        await page.goto(`${baseUrl}/`)
        await submit(page, "ul.list a")
        const notes = await page.$$eval("ul.list .body", (bodies) => bodies.map((b) => b.textContent))
        return { replies, inSession, notes, filedWidths }
      })
      expect(after).toEqual({ replies: ["Added 1 note: Ana."], inSession: 0, notes: [pasted.join("\n\n")], filedWidths: [1280, 360] })
      // Filed into the same notebook as Alice's Telegram messages; the reply went to the page, not to Telegram.
      expect(yield* peopleOf()).toEqual({ items: [{ id: "person_1", user: "telegram:100000001", name: "Ana", noteCount: 1 }], nextCursor: null })
      expect((yield* telegramCalls).map((c) => c.method)).toEqual(["sendMessage"])
    }).pipe(Effect.scoped, Effect.provide(layer([planStep(plan)]))), 60_000)

  it.live("the bot's reply appears on the page as soon as it is made, with no reload", () =>
    Effect.gen(function*() {
      yield* Effect.forkScoped(Effect.flatMap(PlanTrigger, (trigger) => trigger.follow("60 seconds")))
      const link = yield* webLink
      const { baseUrl } = yield* Harness
      const open = yield* browser
      const page = yield* Effect.promise(() => open.newPage())
      const seen = yield* Effect.promise(async () => {
        const blocked: Array<string> = []
        page.on("console", (message) => message.text().includes("Content Security Policy") && blocked.push(message.text()))
        await page.goto(link)
        await submit(page, "main button[type=submit]")
        await page.goto(`${baseUrl}/compose`)
        await write(page, pasted[0]!, "file")
        // A mark on this document: a reload would lose it.
        await page.evaluate(() => void ((globalThis as unknown as { mark: number }).mark = 1))
        await page.waitForSelector("[data-replies] .body", { timeout: 20_000 })
        const replies = await page.$$eval("[data-replies] .body", (bodies) => bodies.map((b) => b.textContent))
        const sameDocument = await page.evaluate(() => (globalThis as unknown as { mark?: number }).mark === 1)
        const widths = await shootWide(page, "15-compose-live-reply")
        // axe is injected as an inline script, which the page's policy refuses: checked on a reload that bypasses it.
        await page.setBypassCSP(true)
        await page.reload()
        const problems = await violations(page)
        return { replies, sameDocument, problems, blocked, widths }
      })
      expect(seen).toEqual({ replies: ["Added 1 note: your own notes."], sameDocument: true, problems: [], blocked: [], widths: [1280, 360] })
    }).pipe(Effect.scoped, Effect.provide(layer([planStep({ ...emptyPlan, unattached: [{ sourceItemSeqs: [1], directives: [] }] })]))), 60_000)

  it.effect("a message that is only spaces is refused on the page, with what was typed kept and nothing recorded", () =>
    Effect.gen(function*() {
      const link = yield* webLink
      const { baseUrl } = yield* Harness
      const open = yield* browser
      const seen = yield* Effect.promise(async () => {
        const page = await open.newPage()
        await page.setBypassCSP(true)
        await page.goto(link)
        await submit(page, "main button[type=submit]")
        await page.goto(`${baseUrl}/compose`)
        await page.type("#text", "   ")
        const [reply] = await submit(page, "form.compose button[value=send]")
        const error = await page.$eval("#compose-error", (p) => p.textContent)
        const kept = await page.$eval("#text", (box) => (box as unknown as { value: string }).value)
        const problems = await violations(page)
        await shoot(page, "15-compose-refused")
        return { status: reply?.status(), error, kept, problems }
      })
      expect(seen).toEqual({ status: 400, error: "The message must hold some text.", kept: "   ", problems: [] })
      expect((yield* eventLog).filter((line) => line.includes("MessageReceived"))).toEqual([])
    }).pipe(Effect.scoped, Effect.provide(layer([]))), 60_000)
})
