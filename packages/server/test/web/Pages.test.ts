/**
 * The web pages in a real headless Chromium (Debian's `chromium`, driven by `puppeteer-core`;
 * nothing is downloaded): sign in, find a person, open a note's audit and check its tinted slices
 * against the audit API whole-string, visit the questions and the session, sign out. Every page
 * is checked with axe-core for serious accessibility violations and photographed into
 * `test-artifacts/web/`. Without Chromium the suite is skipped and says why.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan, type Plan } from "@verbatim/domain/Plan"
import * as ReplyText from "@verbatim/domain/ReplyText"
import { planStep, ScriptedLanguageModel } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { mkdirSync } from "node:fs"
import { accountingOf, auditOf, notesOf, peopleOf, searchFor } from "../apiClient.js"
import {
  aliceUpdate,
  apiToken,
  closeIdle,
  drain,
  eventLog,
  Harness,
  layer,
  senderUpdate,
  telegram,
  telegramCalls,
  voiceSaying
} from "../harness.js"
import { artifacts, browse, chromium, shoot, violations } from "./browser.js"

const text = (messageId: number, body: string) => aliceUpdate(messageId, { text: body })
const voice = (messageId: number, fileId: string) =>
  aliceUpdate(messageId, { voice: { file_id: fileId, file_unique_id: `u-${fileId}`, duration: 2, mime_type: "audio/ogg" } })

const plan: Plan = {
  ...emptyPlan,
  people: [{ contactId: null, name: "Ana Souza", notes: [{ sourceItemSeqs: [1, 2, 3], directives: [", remind me on Sunday"] }] }]
}

describe.skipIf(chromium === undefined)("the web pages in Chromium", () => {
  it.scoped("sign in, find Ana, read a note's audit slice by slice, see questions and the session, sign out", () =>
    Effect.gen(function*() {
      mkdirSync(artifacts, { recursive: true })
      yield* voiceSaying("telegram", "v-1", "She has a cat called Miso.")
      for (const body of [text(1, "Ana moved to Porto in May."), text(2, "She starts at the clinic on Monday, remind me on Sunday"), voice(3, "v-1")]) {
        expect(yield* telegram(body)).toEqual({ status: 200, body: "" })
      }
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      const { baseUrl } = yield* Harness
      const people = yield* peopleOf()
      const notes = yield* notesOf(people.items[0]?.id ?? "")
      const note = notes.items[0]!
      const audit = yield* auditOf(note.id)
      // The API places each cut in its message, so a client draws it where it stood.
      expect(audit.directives).toEqual([{ messageId: "telegram:100000001:2", seq: 2, text: ", remind me on Sunday", start: 34, end: 55 }])
      const expectedSlices = audit.segments.flatMap((s) =>
        s._tag === "Slice" ? [audit.sources.find((m) => m.messageId === s.messageId)!.text.slice(s.start, s.end)] : []
      )

      const seen = yield* browse(async (browser) => {
        const page = await browser.newPage()
        await page.setBypassCSP(true)
        await page.setViewport({ width: 1024, height: 800 })
        await page.goto(`${baseUrl}/`)
        const signInUrl = page.url()
        const signInProblems = await violations(page)
        await shoot(page, "1-sign-in")
        await page.type("#token", "not the token")
        await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")])
        const refused = await page.$eval(".error", (e) => e.textContent)
        await page.type("#token", apiToken)
        await Promise.all([page.waitForNavigation(), page.click("main button[type=submit]")])
        const peopleUrl = page.url()
        const peopleProblems = await violations(page)
        await shoot(page, "2-people")
        await page.type("#q", "ana")
        await Promise.all([page.waitForNavigation(), page.click("form.search button")])
        const found = await page.$$eval("ul.list a", (links) => links.map((a) => a.textContent))
        await Promise.all([page.waitForNavigation(), page.click("ul.list a")])
        const personProblems = await violations(page)
        await shoot(page, "3-person")
        await Promise.all([page.waitForNavigation(), page.click("ul.list p a")])
        const slices = await page.$$eval("[data-slice]", (spans) => spans.map((s) => s.textContent))
        const cuts = await page.$$eval("[data-body] del", (dels) => dels.map((d) => d.textContent))
        const derived = await page.$$eval("[data-body] mark.derived", (marks) => marks.map((m) => [m.textContent, m.getAttribute("title")]))
        // The body as read, with the struck-through cuts left out.
        const bodyWithoutCuts = await page.$eval("[data-body]", (body) =>
          [...body.childNodes].filter((node) => node.nodeName !== "DEL").map((node) => node.textContent).join(""))
        const noteProblems = await violations(page)
        await shoot(page, "4-note-audit")
        // A slice's details show on tap (and on keyboard focus), not only as a tooltip; the plan's ids wait under "Technical details".
        await page.click("[data-slice]")
        const tapped = await page.$eval("[data-slice]:focus", (slice) => {
          const after = (globalThis as unknown as { getComputedStyle: (e: unknown, pseudo: string) => { content: string } }).getComputedStyle(slice, "::after")
          return { seq: slice.getAttribute("data-slice"), shown: after.content === JSON.stringify(slice.getAttribute("title")) }
        })
        await shoot(page, "4-note-audit-tapped")
        const technical = await page.$eval("[data-technical]", (d) => [d.querySelector("summary")!.textContent, d.hasAttribute("open")])
        await page.setViewport({ width: 360, height: 740 })
        await shoot(page, "4-note-audit-360px")
        const narrow = await page.$eval("html", (root) => root.scrollWidth)
        await page.setViewport({ width: 1024, height: 800 })
        await Promise.all([page.waitForNavigation(), page.click("p.muted a[href^='/sessions/']")])
        const dispositions = await page.$$eval("[data-disposition]", (spans) => spans.map((s) => s.getAttribute("data-disposition")))
        const sessionProblems = await violations(page)
        await shoot(page, "5-session")
        await page.goto(`${baseUrl}/questions`)
        const questionsProblems = await violations(page)
        await shoot(page, "6-questions")
        await Promise.all([page.waitForNavigation(), page.click("form.signout button")])
        const afterSignOut = page.url()
        await page.goto(`${baseUrl}/questions`)
        const afterSignOutVisit = page.url()
        return {
          signInUrl, refused, peopleUrl, found, slices, cuts, derived, bodyWithoutCuts, tapped, technical, narrow, dispositions, afterSignOut, afterSignOutVisit,
          problems: { signInProblems, peopleProblems, personProblems, noteProblems, sessionProblems, questionsProblems }
        }
      })
      expect(seen).toEqual({
        signInUrl: `${baseUrl}/signin?next=%2F`,
        refused: "That token is not this server's.",
        peopleUrl: `${baseUrl}/`,
        found: ["Ana Souza"],
        slices: expectedSlices,
        cuts: [", remind me on Sunday"],
        derived: [["She has a cat called Miso.", "read by whisper-1"]],
        bodyWithoutCuts: note.body,
        tapped: { seq: "1", shown: true },
        technical: ["Technical details", false],
        narrow: 360,
        dispositions: ["InNote", "InNote", "InNote"],
        afterSignOut: `${baseUrl}/signin`,
        afterSignOutVisit: `${baseUrl}/signin?next=%2Fquestions`,
        problems: { signInProblems: [], peopleProblems: [], personProblems: [], noteProblems: [], sessionProblems: [], questionsProblems: [] }
      })
      expect(note.body).toBe("Ana moved to Porto in May.\n\nShe starts at the clinic on Monday\n\n🎤 She has a cat called Miso.")
    }).pipe(Effect.provide(layer([planStep(plan)]))), 60_000)

  it.scoped("a question answered from the page files one note; answering it again files nothing more and says so", () =>
    Effect.gen(function*() {
      expect(yield* telegram(text(1, "Her brother is a pilot."))).toEqual({ status: 200, body: "" })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      const { baseUrl } = yield* Harness
      const seen = yield* browse(async (browser) => {
        const page = await browser.newPage()
        await page.setBypassCSP(true)
        await page.goto(`${baseUrl}/questions`)
        await page.type("#token", apiToken)
        await Promise.all([page.waitForNavigation(), page.click("main button[type=submit]")])
        const buttons = await page.$$eval(".answers button", (bs) => bs.map((b) => b.textContent))
        const problems = await violations(page)
        await shoot(page, "7-question")
        // Two tabs on the same question: the first answer files, the second is told it was answered.
        const second = await browser.newPage()
        await second.goto(page.url())
        await page.bringToFront()
        await Promise.all([page.waitForNavigation(), page.click(".answers form:first-child button")])
        const filedAt = new URL(page.url()).pathname
        const body = await page.$eval("[data-body]", (b) => b.textContent)
        await second.bringToFront()
        await Promise.all([second.waitForNavigation(), second.click(".answers form:first-child button")])
        const notice = await second.$eval("[role=status]", (p) => p.textContent)
        await shoot(second, "8-question-answered-twice")
        return { buttons, problems, filedAt: filedAt.startsWith("/notes/"), body, notice }
      })
      expect(seen).toEqual({
        buttons: ["Ana", "Bea", "Keep as my own notes"],
        problems: [],
        filedAt: true,
        body: "Her brother is a pilot.",
        notice: "That question was already answered; nothing changed."
      })
      const people = yield* peopleOf()
      expect(people.items.map((p) => [p.name, p.noteCount])).toEqual([["Ana", 1]])
    }).pipe(Effect.provide(layer([planStep({ ...emptyPlan, unclear: [{ sourceItemSeqs: [1], candidates: ["Ana", "Bea"] }] })]))), 60_000)

  it.scoped("a user signs in with the link /web sends, once; they see their own notes only, never another user's", () =>
    Effect.gen(function*() {
      const about = (name: string): Plan => ({ ...emptyPlan, people: [{ contactId: null, name, notes: [{ sourceItemSeqs: [1], directives: [] }] }] })
      yield* Effect.flatMap(ScriptedLanguageModel, (script) => script.push(planStep(about("Ana")), planStep(about("Tom"))))
      expect(yield* telegram(text(1, "Ana moved to Porto."))).toEqual({ status: 200, body: "" })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* telegram(senderUpdate(100000002, 2, { text: "Tom plays chess on Thursdays." }))).toEqual({ status: 200, body: "" })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* telegram(text(3, "/web"))).toEqual({ status: 200, body: "" })
      // A redelivery of the command queues no second link.
      expect(yield* telegram(text(3, "/web"))).toEqual({ status: 200, body: "" })
      yield* drain
      const links = (yield* telegramCalls).flatMap((c) => {
        const match = /(http:\/\/\S+\/signin\/link\?token=\S+)/.exec((c.body as { text?: string }).text ?? "")
        return match === null ? [] : [match[1]!]
      })
      const link = links[0] ?? ""
      // One reply, its whole text the link and how long it lasts.
      expect((yield* telegramCalls).filter((c) => c.method === "sendMessage").map((c) => (c.body as { text: string }).text).slice(-1))
        .toEqual([ReplyText.webLinkText(link, 10)])
      expect(links).toEqual([link])
      const tom = yield* peopleOf("telegram:100000002")
      const tomNotes = yield* notesOf(tom.items[0]!.id)
      const { baseUrl } = yield* Harness
      const seen = yield* browse(async (browser) => {
        const page = await browser.newPage()
        await page.setBypassCSP(true)
        // Opening the link (as a link preview would) uses nothing up; its button signs in.
        await page.goto(link)
        await page.goto(link)
        const linkProblems = await violations(page)
        await Promise.all([page.waitForNavigation(), page.click("main button[type=submit]")])
        const landed = page.url()
        const people = await page.$$eval("ul.list a", (as) => as.map((a) => a.textContent))
        await shoot(page, "9-user-people")
        await page.goto(`${baseUrl}/search?q=porto`)
        const hits = await page.$$eval("[data-hit] .body", (bodies) => bodies.map((b) => b.innerHTML))
        const searchProblems = await violations(page)
        await shoot(page, "11-search")
        await page.goto(`${baseUrl}/search?q=chess`)
        const othersHits = await page.$$eval("[data-hit]", (items) => items.length)
        const hidden = []
        for (const path of [`/people/${tom.items[0]!.id}`, `/notes/${tomNotes.items[0]!.id}`, `/sessions/${tomNotes.items[0]!.sessionId}`]) {
          const response = await page.goto(`${baseUrl}${path}`)
          hidden.push(response?.status())
        }
        // Nor can they change it: every curation form on another user's note or person is a 404.
        const csrf = await page.$eval("form.signout input[name=csrf]", (input) => input.getAttribute("value") ?? "")
        const tomNote = `/notes/${tomNotes.items[0]!.id}`
        const tomPage = `/people/${tom.items[0]!.id}`
        const curated = await page.evaluate(async (paths: ReadonlyArray<string>, csrf: string) =>
          Promise.all(paths.map(async (path) => {
            const body = new URLSearchParams({ csrf, to: "own", name: "Mine", atSeq: "2", into: "person_1", confirmed: "yes" })
            return (await fetch(path, { method: "POST", body, redirect: "manual" })).status
          })), [`${tomNote}/discard`, `${tomNote}/move`, `${tomNote}/split`, `${tomPage}/rename`, `${tomPage}/merge`, `${tomPage}/unmerge`], csrf)
        const other = await browser.createBrowserContext()
        const again = await other.newPage()
        await again.goto(link)
        const [reused] = await Promise.all([again.waitForNavigation(), again.click("main button[type=submit]")])
        const refusal = await again.$eval(".error", (e) => e.textContent)
        await shoot(again, "10-link-used")
        // A forged link is refused as it opens.
        const forged = await again.goto(`${link.slice(0, -3)}AAA`)
        return { linkProblems, landed, people, hits, searchProblems, othersHits, hidden, curated, reused: reused?.status(), refusal, forged: forged?.status() }
      })
      expect(seen).toEqual({
        linkProblems: [],
        landed: `${baseUrl}/`,
        people: ["Ana"],
        hits: ["Ana moved to <mark>Porto</mark>."],
        searchProblems: [],
        othersHits: 0,
        hidden: [404, 404, 404],
        curated: [404, 404, 404, 404, 404, 404],
        reused: 401,
        refusal: "That sign-in link is used, expired or not this server's: send /web to the bot for a new one.",
        forged: 404
      })
      // Tom's note and name are as they were.
      expect([yield* accountingOf(tomNotes.items[0]!.sessionId), yield* peopleOf("telegram:100000002")])
        .toEqual([
          {
            sessionId: tomNotes.items[0]!.sessionId,
            user: "telegram:100000002",
            status: "planned",
            messages: [{ messageId: "telegram:100000002:2", seq: 1, dispositions: [{ _tag: "InNote", noteId: tomNotes.items[0]!.id }] }],
            reminders: []
          },
          { items: [{ id: tom.items[0]!.id, user: "telegram:100000002", name: "Tom", noteCount: 1 }], nextCursor: null }
        ])
      // One use recorded, in the link's own stream.
      const nonce = new URL(link).searchParams.get("token")!.split(".")[2]
      expect((yield* eventLog).filter((line) => line.endsWith(" WebSignIn"))).toEqual([`web-signin-${nonce}#1 WebSignIn`])
      // The operator's API searches every user's; `user` narrows it.
      const all = yield* searchFor("moved porto")
      const bobs = yield* searchFor("chess", "telegram:100000002")
      expect([all.hits.map((h) => h.text), bobs.hits.map((h) => h.text)]).toEqual([["Ana moved to Porto."], ["Tom plays chess on Thursdays."]])
    }).pipe(Effect.provide(layer([]))), 60_000)

  it.effect("a sign-out without its form token is refused; pages send security headers", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* Harness
      const signIn = yield* Effect.promise(() =>
        fetch(`${baseUrl}/signin`, { method: "POST", body: new URLSearchParams({ token: apiToken }), redirect: "manual" }))
      const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!
      const forged = yield* Effect.promise(() =>
        fetch(`${baseUrl}/signout`, { method: "POST", headers: { cookie }, body: new URLSearchParams({ csrf: "forged" }), redirect: "manual" }))
      const forgedDiscard = yield* Effect.promise(() =>
        fetch(`${baseUrl}/notes/note_1/discard`, { method: "POST", headers: { cookie }, body: new URLSearchParams({ csrf: "forged" }), redirect: "manual" }))
      const home = yield* Effect.promise(() => fetch(`${baseUrl}/`, { headers: { cookie } }))
      const incomplete = yield* Effect.promise(() =>
        Promise.all([
          fetch(`${baseUrl}/signin`, { method: "POST", body: new URLSearchParams({}), redirect: "manual" }).then((r) => r.status),
          fetch(`${baseUrl}/questions/q_1/answer`, { method: "POST", headers: { cookie }, body: new URLSearchParams({ option: "x" }), redirect: "manual" })
            .then((r) => r.status)
        ]))
      expect({
        signIn: [signIn.status, signIn.headers.get("location"), /HttpOnly; SameSite=Strict/.test(signIn.headers.get("set-cookie") ?? "")],
        forged: [forged.status, forgedDiscard.status],
        home: [home.status, home.headers.get("content-security-policy"), home.headers.get("cache-control")],
        incomplete
      }).toEqual({
        signIn: [303, "/", true],
        forged: [403, 403],
        home: [200, "default-src 'none'; style-src 'self'; img-src 'self'; media-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'", "no-store"],
        incomplete: [400, 400]
      })
    }).pipe(Effect.provide(layer([]))))
})
