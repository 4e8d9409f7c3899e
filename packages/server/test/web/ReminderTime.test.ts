/**
 * A reminder whose time the plan did not make clear, on the reminders page in Chromium: listed
 * first, in its words, with the question's choices and a time field; a time picked and set makes
 * it a reminder coming up at that time on the user's clock, and a time already past is refused
 * with the reason, changing nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import { MessageId } from "@verbatim/domain/Ids"
import { emptyPlan } from "@verbatim/domain/Plan"
import { reminderIdOf } from "@verbatim/domain/Reminders/FromPlan"
import { zoneText } from "@verbatim/domain/Reminders/Text"
import { closeZones } from "@verbatim/domain/Reminders/Zones"
import { FakeAnthropic, FakeReply } from "@verbatim/testkit/FakeAnthropic"
import { DateTime, Effect } from "effect"
import { PlanTrigger } from "../../src/Planning/PlanTrigger.js"
import * as ReminderIntake from "../../src/Reminders/Intake.js"
import { eventually } from "../eventually.js"
import { captureMessages, remindersOf } from "../apiClient.js"
import { apiToken, eventLog, fakeAnthropicModel, Harness, layerOver } from "../harness.js"
import { browser, chromium, shoot, signInAsOperator, submit, violations } from "./browser.js"

const text = "Bea starts at the clinic soon. Remind me to send her flowers at some point."
const quote = "Remind me to send her flowers at some point."
const start = text.indexOf(quote)
const reminderId = reminderIdOf(MessageId.make("web:web:operator/b1"), start, start + quote.length)

describe.skipIf(chromium === undefined)("a reminder whose time is asked, on the page in Chromium", () => {
  it.live("is listed first with the question's choices; a past time is refused; a time picked and set schedules it on the user's clock", () =>
    Effect.gen(function*() {
      yield* Effect.forkScoped(Effect.flatMap(PlanTrigger, (trigger) => trigger.follow("60 seconds")))
      yield* Effect.forkScoped(ReminderIntake.run)
      yield* Effect.sleep("200 millis")
      yield* Effect.flatMap(FakeAnthropic, (fake) =>
        fake.script(FakeReply.toolUse({
          ...emptyPlan,
          people: [{ contactId: null, name: "Bea", notes: [{ sourceItemSeqs: [1], directives: [quote] }] }],
          reminders: [{ seq: 1, quote, due: "at some point" }]
        })))
      yield* captureMessages([{ id: "b1", text }])
      yield* eventually(eventLog, (lines) => lines.some((line) => line.endsWith(" RemindersTaken")))
      const { baseUrl } = yield* Harness
      const open = yield* browser
      const page = yield* Effect.promise(() => open.newPage())
      // A `datetime-local` field given the value its picker sets.
      const pick = (value: string) =>
        page.$eval(`form[action="/reminders/${reminderId}"] input[name=due]`, (input, v) => {
          ;(input as unknown as { value: string }).value = v
        }, value)
      const seen = yield* Effect.promise(async () => {
        await signInAsOperator(page, baseUrl, apiToken)
        await page.goto(`${baseUrl}/reminders`)
        const item = await page.$eval("li[data-reminder]", (li) => ({
          line: li.querySelector("p")?.textContent ?? null,
          buttons: Array.from(li.querySelectorAll("button"), (b) => `${(b as { getAttribute: (n: string) => string | null }).getAttribute("value")}:${(b as { textContent: string | null }).textContent}`),
          value: (li.querySelector("input[name=due]") as unknown as { value: string } | null)?.value ?? null
        }))
        const problems = await violations(page)
        await shoot(page, "t1-reminder-time-asked")
        await pick("2020-05-01T10:00")
        await submit(page, `form[action="/reminders/${reminderId}"] button[value=set]`)
        const refused = await page.$eval("[role=status]", (p) => p.textContent)
        await pick("2031-05-01T10:30")
        await submit(page, `form[action="/reminders/${reminderId}"] button[value=set]`)
        const notice = await page.$eval("[role=status]", (p) => p.textContent)
        const line = await page.$eval("li[data-reminder] p", (p) => p.textContent)
        await shoot(page, "t2-reminder-time-set")
        // The time zone, set from the page as /tz sets it: a name spelt loosely, then one that is none.
        const zoneIs = () => page.$eval("#zone", (input) => (input as unknown as { value: string }).value)
        const zoneBefore = await zoneIs()
        await page.$eval("#zone", (input) => { ;(input as unknown as { value: string }).value = "europe/lisbon" })
        await submit(page, "form[action='/reminders/zone'] button")
        const zoneSet = { notice: await page.$eval("[role=status]", (p) => p.textContent), zone: await zoneIs(), line: await page.$eval("li[data-reminder] p", (p) => p.textContent) }
        await shoot(page, "t3-reminder-zone-set")
        await page.$eval("#zone", (input) => { ;(input as unknown as { value: string }).value = "Mars/Olympus" })
        await submit(page, "form[action='/reminders/zone'] button")
        const zoneRefused = { notice: await page.$eval("[role=status]", (p) => p.textContent), zone: await zoneIs() }
        return { item, problems, refused, notice, line, zoneBefore, zoneSet, zoneRefused }
      })
      expect(seen).toEqual({
        item: {
          line: "no time set yet · waiting for your answer · where you asked",
          buttons: ["morning:Tomorrow 09:00", "monday:Next Monday 09:00", "cancel:No reminder", "set:Set this time"],
          value: ""
        },
        problems: [],
        refused: "Nothing changed: the new time has already passed.",
        notice: "I will remind you at 1 May 2031, 10:30 (UTC).",
        line: "due 1 May 2031, 10:30 (UTC) · coming up · where you asked",
        zoneBefore: "UTC",
        // A reminder keeps the clock it was set on.
        zoneSet: {
          notice: "Your time zone is now Europe/Lisbon: reminders are set and sent on its clock.",
          zone: "Europe/Lisbon",
          line: "due 1 May 2031, 10:30 (UTC) · coming up · where you asked"
        },
        zoneRefused: { notice: zoneText.unknown("Mars/Olympus", closeZones("Mars/Olympus")), zone: "Europe/Lisbon" }
      })
      const listed = yield* remindersOf("web:operator")
      expect(listed.items.map((r) => [r.id, r.status, r.dueAt === null ? null : DateTime.formatIso(r.dueAt), r.dueLocal])).toEqual([[reminderId, "scheduled", "2031-05-01T10:30:00.000Z", "2031-05-01T10:30"]])
      const tags = (yield* eventLog).map((line) => line.split(" ")[1] ?? "").filter((tag) => tag.startsWith("Reminder"))
      expect(tags).toEqual(["ReminderTimeAsked", "RemindersTaken", "ReminderRescheduled"])
      expect((yield* eventLog).filter((line) => line.endsWith(" TimeZoneSet")).length).toBe(1)
    }).pipe(Effect.scoped, Effect.provide(layerOver(fakeAnthropicModel("sk-test")))), 90_000)
})
