/**
 * The reminders page in Chromium: the operator's two reminders, one for 2030 and one that fell due
 * a minute after it was asked for (and so went out), each in its own words with its due time on its
 * clock and a link to those words marked in their note; the delivered one snoozed an hour, then
 * marked done from its buttons, so it moves under "Done and cancelled" without them; pressing Done
 * on it again changes nothing and says why. A reminder whose words the plan cut from the note as an
 * instruction links to a note with nothing marked: a known bug, its test marked `.fails`.
 */
import { describe, expect, it } from "@effect/vitest"
import { MessageId } from "@verbatim/domain/Ids"
import { emptyPlan } from "@verbatim/domain/Plan"
import { readableReading } from "@verbatim/domain/ReadableTime"
import { reminderIdOf } from "@verbatim/domain/Reminders/FromPlan"
import { FakeAnthropic, FakeReply } from "@verbatim/testkit/FakeAnthropic"
import { DateTime, Effect } from "effect"
import type { Page } from "puppeteer-core"
import { PlanTrigger } from "../../src/Planning/PlanTrigger.js"
import * as Outbox from "../../src/Providers/Outbox.js"
import * as ReminderDelivery from "../../src/Reminders/Delivery.js"
import * as ReminderIntake from "../../src/Reminders/Intake.js"
import { eventually } from "../eventually.js"
import { captureMessages, remindersOf } from "../apiClient.js"
import { apiToken, eventLog, fakeAnthropicModel, Harness, layerOver } from "../harness.js"
import { browser, chromium, shoot, signInAsOperator, submit, violations } from "./browser.js"

const script = (...replies: ReadonlyArray<FakeReply>) => Effect.flatMap(FakeAnthropic, (fake) => fake.script(...replies))

const aboutAna = "Ana moves to Porto in May. Remind me to ask her about the flat on 2030-01-02."
const anaQuote = "Remind me to ask her about the flat on 2030-01-02."
const aboutTomas = "Tomás left his keys with me. Remind me to give them back in a minute."
const tomasQuote = "Remind me to give them back in a minute."
const anaStart = aboutAna.indexOf(anaQuote)
const tomasStart = aboutTomas.indexOf(tomasQuote)
const anaId = reminderIdOf(MessageId.make("web:web:operator/r1"), anaStart, anaStart + anaQuote.length)
const tomasId = reminderIdOf(MessageId.make("web:web:operator/r2"), tomasStart, tomasStart + tomasQuote.length)

/** A clock reading in UTC (the operator's zone, never set), as the page and the API write it. */
const localOf = (millis: number) => new Date(millis).toISOString().slice(0, 16)
const minute = 60_000
const hour = 3_600_000

/** Planning following closed sessions, the plans' reminders taken and delivered at their time, replies sent. */
const running = Effect.gen(function*() {
  yield* Effect.forkScoped(Outbox.runEvery("60 seconds"))
  yield* Effect.forkScoped(Effect.flatMap(PlanTrigger, (trigger) => trigger.follow("60 seconds")))
  yield* Effect.forkScoped(ReminderIntake.run)
  yield* Effect.forkScoped(ReminderDelivery.run)
  yield* Effect.sleep("200 millis")
})

const reminders = Effect.map(remindersOf("web:operator"), (list) => list.items)
const reminderOf = (id: string) => Effect.map(reminders, (items) => items.find((r) => r.id === id))

/** The operator's messages captured through the API, the session closed, planned as `plan` says; once its reminders are taken. */
const capture = (plan: object, messages: ReadonlyArray<{ readonly id: string; readonly text: string }>) =>
  Effect.gen(function*() {
    yield* script(FakeReply.toolUse({ ...emptyPlan, ...plan }))
    yield* captureMessages(messages)
    yield* eventually(eventLog, (lines) => lines.some((line) => line.endsWith(" RemindersTaken")))
  })

/**
 * The operator's two messages, planned into notes about Ana and Tomás with a reminder each: Ana's
 * for 2030, its words cut from her note as an instruction; Tomás's at the next whole minute (at
 * least 10 seconds after the message is sent, as a time passed by then is no reminder), its words
 * left in his note. Waits until Tomás's has gone out; its due time.
 */
const captured = Effect.gen(function*() {
  const soon = Math.ceil((Date.now() + 10_000) / minute) * minute
  yield* capture({
    people: [
      { contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [anaQuote] }] },
      { contactId: null, name: "Tomás", notes: [{ sourceItemSeqs: [2], directives: [] }] }
    ],
    reminders: [{ seq: 1, quote: anaQuote, due: "2030-01-02T09:00" }, { seq: 2, quote: tomasQuote, due: localOf(soon) }]
  }, [{ id: "r1", text: aboutAna }, { id: "r2", text: aboutTomas }])
  // Delivered at its minute, at most 70 seconds from now: polled for 80 seconds.
  const delivered = yield* eventually(reminderOf(tomasId), (r) => r?.status === "delivered", 4_000)
  expect(delivered?.status).toBe("delivered")
  return soon
})

/** Signed in as the operator. */
const signIn = (page: Page, baseUrl: string) => signInAsOperator(page, baseUrl, apiToken)

/** An element, as much of it as the page's reading needs (the tests are typed without the DOM's library). */
interface Shown {
  readonly tagName: string
  readonly textContent: string | null
  readonly getAttribute: (name: string) => string | null
  readonly querySelector: (selector: string) => Shown | null
  readonly querySelectorAll: (selector: string) => ArrayLike<Shown>
}

/** The page as read: the notice, and the items above "Done and cancelled" and below it, each whole, with its link and buttons. */
const listed = (page: Page) =>
  page.$$eval("main > *", (children) => {
    const open: Array<unknown> = []
    const finished: Array<unknown> = []
    let notice: string | null = null
    let below = false
    for (const child of children as unknown as ReadonlyArray<Shown>) {
      below ||= child.tagName === "H2" && child.textContent === "Done and cancelled"
      if (child.getAttribute("role") === "status") notice = child.textContent
      const items = Array.from(child.querySelectorAll("li[data-reminder]")).map((li) => ({
        text: li.textContent,
        quote: li.querySelector("blockquote")?.textContent ?? null,
        line: li.querySelector("p")?.textContent ?? null,
        link: li.querySelector("a")?.getAttribute("href") ?? null,
        form: li.querySelector("form")?.getAttribute("action") ?? null,
        buttons: Array.from(li.querySelectorAll("button")).map((b) => `${b.getAttribute("value")}:${b.textContent}`)
      }))
      ;(below ? finished : open).push(...items)
    }
    return { notice, open, finished }
  })

const buttons = ["done:Done", "hour:Snooze 1 hour", "morning:Tomorrow 09:00", "cancel:Cancel", "set:Set this time"]
/** The buttons' labels and the time field's, run together as an item's text reads them. */
const labels = "DoneSnooze 1 hourTomorrow 09:00CancelAt  UTC Set this time"
/** The note's address with the quote's characters of its message to mark, as the page links it. */
const linkTo = (noteId: string, messageId: string, start: number, quote: string) =>
  `/notes/${noteId}?mark=${encodeURIComponent(`${messageId}:${start}-${start + quote.length}`)}`

const layer = () => layerOver(fakeAnthropicModel("sk-test"))

describe.skipIf(chromium === undefined)("the reminders page in Chromium", () => {
  it.live("lists the reminders in their words with due time, state and a link to the words marked; snooze and done from the buttons; done twice changes nothing", () =>
    Effect.gen(function*() {
      yield* running
      const soon = yield* captured
      const { baseUrl } = yield* Harness
      const open = yield* browser
      const page = yield* Effect.promise(() => open.newPage())
      const anaLink = linkTo("note_1", "web:web:operator/r1", anaStart, anaQuote)
      const tomasLink = linkTo("note_2", "web:web:operator/r2", tomasStart, tomasQuote)
      const anaItem = {
        text: `“${anaQuote}”due 2 January 2030, 09:00 (UTC) · coming up · where you asked${labels}`,
        quote: `“${anaQuote}”`,
        line: "due 2 January 2030, 09:00 (UTC) · coming up · where you asked",
        link: anaLink,
        form: `/reminders/${anaId}`,
        buttons
      }
      const seen = yield* Effect.promise(async () => {
        await signIn(page, baseUrl)
        await page.goto(`${baseUrl}/reminders`)
        const before = await listed(page)
        const listProblems = await violations(page)
        await shoot(page, "r1-reminders-before")
        // Where Tomás's was asked for: his note, with those words marked.
        await submit(page, `li[data-reminder] a[href="${tomasLink}"]`)
        const notePath = new URL(page.url()).pathname
        const marked = await page.$$eval("mark[data-quoted]", (marks) => marks.map((m) => m.textContent))
        const noteProblems = await violations(page)
        await shoot(page, "r2-note-marked")
        await page.goBack()
        // Tomás's, sent: an hour later.
        const pressedAt = Date.now()
        await submit(page, `form[action="/reminders/${tomasId}"] button[value=hour]`)
        const answeredAt = Date.now()
        const snoozed = { path: new URL(page.url()).pathname, ...(await listed(page)) }
        await shoot(page, "r3-reminders-snoozed")
        await submit(page, `form[action="/reminders/${tomasId}"] button[value=done]`)
        const done = { path: new URL(page.url()).pathname, ...(await listed(page)) }
        const doneProblems = await violations(page)
        await shoot(page, "r4-reminders-after")
        // Done again, as the form would send it (there is no button for it any more), with the page's token.
        const csrf = await page.$eval("form.actions input[name=csrf]", (input) => (input as unknown as { value: string }).value)
        const again = await page.evaluate(async (path, fields) => {
          const reply = await fetch(path, { method: "POST", body: new URLSearchParams(fields) })
          return { status: reply.status, path: new URL(reply.url).pathname, search: decodeURIComponent(new URL(reply.url).search) }
        }, `/reminders/${tomasId}`, { csrf, action: "done" })
        return { before, notePath, marked, pressedAt, answeredAt, snoozed, done, again, problems: [listProblems, noteProblems, doneProblems] }
      })

      const sent = readableReading(localOf(soon))
      expect(seen.before).toEqual({
        notice: null,
        open: [
          {
            text: `“${tomasQuote}”due ${sent} (UTC) · sent, not marked done · where you asked${labels}`,
            quote: `“${tomasQuote}”`,
            line: `due ${sent} (UTC) · sent, not marked done · where you asked`,
            link: tomasLink,
            form: `/reminders/${tomasId}`,
            buttons
          },
          anaItem
        ],
        finished: []
      })
      expect(seen.notePath).toBe("/notes/note_2")
      expect(seen.marked).toEqual([tomasQuote])

      // An hour from the press, on the live clock, read to the minute.
      const shown = /^due (.+?) \(UTC\)/.exec((seen.snoozed.open[0] as { line: string } | undefined)?.line ?? "")?.[1] ?? "not shown"
      // An hour after the press, read on the clock when the press or its answer was made (a minute may turn between them).
      const snoozedTo = [localOf(seen.pressedAt + hour), localOf(seen.answeredAt + hour)].find((l) => readableReading(l) === shown)
      expect(snoozedTo).toBeDefined()
      const tomasComing = {
        text: `“${tomasQuote}”due ${shown} (UTC) · coming up · where you asked${labels}`,
        quote: `“${tomasQuote}”`,
        line: `due ${shown} (UTC) · coming up · where you asked`,
        link: tomasLink,
        form: `/reminders/${tomasId}`,
        buttons
      }
      expect(seen.snoozed).toEqual({ path: "/reminders", notice: `Snoozed until ${shown} (UTC).`, open: [tomasComing, anaItem], finished: [] })
      expect(seen.done).toEqual({
        path: "/reminders",
        notice: "Marked done.",
        open: [anaItem],
        finished: [{
          text: `“${tomasQuote}”due ${shown} (UTC) · done · where you asked`,
          quote: `“${tomasQuote}”`,
          line: `due ${shown} (UTC) · done · where you asked`,
          link: tomasLink,
          form: null,
          buttons: []
        }]
      })
      expect(seen.again).toEqual({ status: 200, path: "/reminders", search: "?notice=Nothing changed: the reminder is already done." })
      expect(seen.problems).toEqual([[], [], []])

      // What the pages did is what the reminders' record says.
      const after = yield* reminders
      const tomas = after.find((r) => r.id === tomasId)
      expect(tomas).toMatchObject({ status: "done", dueLocal: snoozedTo, noteId: "note_2", late: false })
      const tomasDue = tomas?.dueAt == null ? Number.NaN : DateTime.toEpochMillis(tomas.dueAt)
      expect(tomasDue).toBeGreaterThanOrEqual(seen.pressedAt + hour)
      expect(tomasDue).toBeLessThanOrEqual(seen.answeredAt + hour)
      expect(after.find((r) => r.id === anaId)).toMatchObject({ status: "scheduled", dueLocal: "2030-01-02T09:00", noteId: "note_1", late: false })
      const tags = (yield* eventLog).map((line) => line.split(" ")[1] ?? "").filter((tag) => tag.startsWith("Reminder"))
      expect(tags).toEqual(["ReminderScheduled", "ReminderScheduled", "RemindersTaken", "ReminderDelivered", "ReminderSnoozed", "ReminderDone"])
    }).pipe(Effect.scoped, Effect.provide(layer())), 150_000)

  // The words of a reminder are usually also an instruction the plan cut from the note (as the
  // plan's contract says): the note page marks them inside the cut.
  it.live("a reminder whose words were cut from the note as an instruction: \"where you asked\" shows those words marked", () =>
    Effect.gen(function*() {
      yield* running
      yield* capture({
        people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [anaQuote] }] }],
        reminders: [{ seq: 1, quote: anaQuote, due: "2030-01-02T09:00" }]
      }, [{ id: "r1", text: aboutAna }])
      const { baseUrl } = yield* Harness
      const open = yield* browser
      const page = yield* Effect.promise(() => open.newPage())
      const anaLink = linkTo("note_1", "web:web:operator/r1", anaStart, anaQuote)
      const seen = yield* Effect.promise(async () => {
        await signIn(page, baseUrl)
        await page.goto(`${baseUrl}/reminders`)
        const link = await page.$eval("li[data-reminder] a", (a) => a.getAttribute("href"))
        await submit(page, "li[data-reminder] a")
        const notePath = new URL(page.url()).pathname
        const cut = await page.$$eval("[data-body] del.cut", (cuts) => cuts.map((d) => d.textContent))
        const marked = await page.$$eval("mark[data-quoted]", (marks) => marks.map((m) => m.textContent))
        await shoot(page, "r5-note-cut-quote")
        return { link, notePath, cut, marked }
      })
      expect(seen).toEqual({ link: anaLink, notePath: "/notes/note_1", cut: [anaQuote], marked: [anaQuote] })
    }).pipe(Effect.scoped, Effect.provide(layer())), 60_000)
})
