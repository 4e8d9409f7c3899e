/**
 * Asking from the page in Chromium: the operator types a question in the ask box, the worker asks
 * the fake Messages API, and the answer page shows only the exact quote (the made-up one counted
 * as left out), each with who and when and a link to the note with the quoted characters marked;
 * the question is then listed under the box. A question of only spaces is sent back to the box.
 */
import { describe, expect, it } from "@effect/vitest"
import { localDay } from "@verbatim/domain/Ask/Candidates"
import { dayText } from "@verbatim/domain/Ask/Text"
import { AskId } from "@verbatim/domain/Ids"
import { emptyPlan } from "@verbatim/domain/Plan"
import { FakeAnthropic, FakeReply } from "@verbatim/testkit/FakeAnthropic"
import { Effect } from "effect"
import type { Page } from "puppeteer-core"
import * as AskWorker from "../../src/Ask/Worker.js"
import { PlanTrigger } from "../../src/Planning/PlanTrigger.js"
import { eventually } from "../eventually.js"
import { captureMessages, client } from "../apiClient.js"
import { apiToken, eventLog, fakeAnthropicModel, Harness, layerOver } from "../harness.js"
import { browser, chromium, shoot, signInAsOperator, submit, violations } from "./browser.js"

const script = (...replies: ReadonlyArray<FakeReply>) => Effect.flatMap(FakeAnthropic, (fake) => fake.script(...replies))

const aboutAna = "Ana is moving to Lisbon in May."
const aboutTomas = "Tomás said the flat on Rua Augusta is too small."
const question = "Who is moving to Lisbon?"

/** The worker answering questions and planning following closed sessions, for the test's scope. */
const running = Effect.gen(function*() {
  yield* Effect.forkScoped(Effect.flatMap(PlanTrigger, (trigger) => trigger.follow("60 seconds")))
  yield* Effect.forkScoped(AskWorker.run)
  yield* Effect.sleep("200 millis")
})

/** The operator's two messages, captured through the API and planned into notes about Ana and Tomás. */
const captured = Effect.gen(function*() {
  yield* script(FakeReply.toolUse({
    ...emptyPlan,
    people: [
      { contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] },
      { contactId: null, name: "Tomás", notes: [{ sourceItemSeqs: [2], directives: [] }] }
    ]
  }))
  yield* captureMessages([{ id: "a1", text: aboutAna }, { id: "a2", text: aboutTomas }])
  yield* eventually(eventLog, (lines) => lines.some((line) => line.endsWith("PlanApplied")))
})

const today = () => dayText(localDay(Date.now(), "UTC"))

/** Signed in as the operator. */
const signIn = (page: Page, baseUrl: string) => signInAsOperator(page, baseUrl, apiToken)

const layer = () => layerOver(fakeAnthropicModel("sk-test"))

describe.skipIf(chromium === undefined)("asking from the page in Chromium", () => {
  it.live("the answer page shows the exact quote with its person, day and link, counts the made-up one as left out; the note marks the quoted words", () =>
    Effect.gen(function*() {
      yield* running
      yield* captured
      yield* script(FakeReply.toolUse({
        quotes: [
          { ref: "m1", text: "moving to Lisbon" },
          { ref: "m1", text: "Tomás is moving to Lisbon too." }
        ]
      }))
      const { baseUrl } = yield* Harness
      const open = yield* browser
      const page = yield* Effect.promise(() => open.newPage())
      const seen = yield* Effect.promise(async () => {
        await signIn(page, baseUrl)
        await page.goto(`${baseUrl}/ask`)
        const emptyList = await page.$$eval("[data-ask]", (items) => items.length)
        const askProblems = await violations(page)
        await shoot(page, "a1-ask")
        await page.type("#question", question)
        await submit(page, "form.ask button[type=submit]")
        const answerPath = new URL(page.url()).pathname
        const heading = await page.$eval("h1", (h) => h.textContent)
        const summary = await page.$eval("main h1 + p.muted", (p) => p.textContent?.replace(/^Asked .+? \(UTC\) · /, "Asked … · "))
        const quotes = await page.$$eval("li[data-quote]", (items) => items.map((i) => i.textContent))
        const link = await page.$eval("li[data-quote] a", (a) => a.getAttribute("href"))
        const answerProblems = await violations(page)
        await shoot(page, "a2-answer")
        // The asker confirms the quote answers it: a label for asking again under another prompt.
        await submit(page, "li[data-quote] form button")
        const notice = await page.$eval("[role=status]", (p) => p.textContent)
        const confirmed = await page.$$eval("li[data-quote]", (items) => items.map((i) => i.textContent))
        await submit(page, "li[data-quote] a")
        const notePath = new URL(page.url()).pathname
        const marked = await page.$$eval("mark[data-quoted]", (marks) => marks.map((m) => m.textContent))
        const markStyle = await page.$eval("mark[data-quoted]", (m) =>
          (globalThis as unknown as { getComputedStyle: (e: unknown) => { backgroundColor: string } }).getComputedStyle(m).backgroundColor)
        const noteProblems = await violations(page)
        await shoot(page, "a3-note-marked")
        await page.goto(`${baseUrl}/ask`)
        const asked = await page.$$eval("[data-ask]", (items) =>
          items.map((i) => [i.querySelector("a")?.getAttribute("href"), i.textContent?.replace(/ \d+ \w+ \d{4}, \d\d:\d\d \(UTC\) · /, " … · ")]))
        await shoot(page, "a4-asked-before")
        return { emptyList, answerPath, heading, summary, quotes, notice, confirmed, link, notePath, marked, markStyle, asked, problems: [askProblems, answerProblems, noteProblems] }
      })
      const id = /^\/asks\/(ask_\w+)$/.exec(seen.answerPath)?.[1] ?? `not an answer page: ${seen.answerPath}`
      expect(seen).toEqual({
        emptyList: 0,
        answerPath: `/asks/${id}`,
        heading: question,
        summary: "Asked … · 1 quote · 1 quote the model gave that is not your exact words, left out",
        quotes: [`“moving to Lisbon”— Ana, ${today()} · where it was saidThis answers it`],
        notice: "Noted: that quote answers the question.",
        confirmed: [`“moving to Lisbon”— Ana, ${today()} · where it was saidYou confirmed this answers it.`],
        link: `/notes/note_1?mark=${encodeURIComponent("web:web:operator/a1:7-23")}`,
        notePath: "/notes/note_1",
        marked: ["moving to Lisbon"],
        markStyle: "rgb(255, 202, 40)",
        asked: [[`/asks/${id}`, `${question} … · 1 quote`]],
        problems: [[], [], []]
      })
      // The answer the page showed is the one recorded.
      const recorded = yield* client((c) => c.ask.asked({ path: { id: AskId.make(id) } }))
      expect(recorded).toEqual({
        id,
        user: "web:operator",
        question,
        postedAt: recorded.postedAt,
        status: "answered",
        quotes: [{ messageId: "web:web:operator/a1", noteId: "note_1", person: "Ana", day: localDay(Date.now(), "UTC"), start: 7, end: 23, text: "moving to Lisbon", confirmed: true }],
        dropped: 1,
        failure: null,
        text: `“moving to Lisbon”\n— Ana, ${today()}\n${baseUrl}/notes/note_1?mark=${encodeURIComponent("web:web:operator/a1:7-23")}`
      })
    }).pipe(Effect.scoped, Effect.provide(layer())), 60_000)

  it.live("a question of only spaces goes back to the box with \"Ask something first.\" and nothing is asked", () =>
    Effect.gen(function*() {
      yield* running
      const { baseUrl } = yield* Harness
      const open = yield* browser
      const page = yield* Effect.promise(() => open.newPage())
      const seen = yield* Effect.promise(async () => {
        await signIn(page, baseUrl)
        await page.goto(`${baseUrl}/ask`)
        await page.type("#question", "  \n  ")
        await submit(page, "form.ask button[type=submit]")
        const spaces = { path: new URL(page.url()).pathname, notice: await page.$eval("[role=status]", (p) => p.textContent) }
        const problems = await violations(page)
        await shoot(page, "a5-ask-empty")
        // The box is `required`, so the browser will not send it empty; the same form sent empty anyway.
        const csrf = await page.$eval("form.ask input[name=csrf]", (input) => (input as unknown as { value: string }).value)
        const empty = await page.evaluate(async (fields) => {
          const reply = await fetch("/ask", { method: "POST", body: new URLSearchParams(fields) })
          return { path: new URL(reply.url).pathname, search: decodeURIComponent(new URL(reply.url).search) }
        }, { csrf, question: "" })
        const listed = await page.$$eval("[data-ask]", (items) => items.length)
        return { spaces, empty, listed, problems }
      })
      expect(seen).toEqual({
        spaces: { path: "/ask", notice: "Ask something first." },
        empty: { path: "/ask", search: "?notice=Ask something first." },
        listed: 0,
        problems: []
      })
      expect((yield* eventLog).filter((line) => line.startsWith("ask-"))).toEqual([])
      const requests = yield* Effect.flatMap(FakeAnthropic, (fake) => fake.requests)
      expect(requests).toEqual([])
    }).pipe(Effect.scoped, Effect.provide(layer())), 60_000)
})
