/**
 * `verbatim replay --publish` keeps its report where the web pages show it: the CLI (a subprocess
 * over a recorded store) writes it, and the operator's page reads it back whole; a user signed in
 * by a bot link never sees it.
 */
import { describe, expect, it } from "@effect/vitest"
import { notReadMessage } from "@verbatim/domain/OperatorReads/Mode"
import { ReplayReportBody } from "@verbatim/domain/ReplayReport"
import { ReplayReports } from "@verbatim/projections/ReplayReports"
import * as Store from "@verbatim/projections/Store"
import { Effect, Schema } from "effect"
import { join } from "node:path"
import { runCli, tempDir } from "./CliHarness.js"
import { apiToken, Harness, layer } from "./harness.js"
import { unescapeHtml } from "./unescapeHtml.js"
import { record, sessions } from "./ReplayFixture.js"
import { browse, chromium, shoot, violations } from "./web/browser.js"

/** The report the CLI kept, read from its store. */
const kept = (dataDir: string) =>
  Effect.flatMap(ReplayReports, (reports) => reports.list(10)).pipe(
    Effect.provide(Store.layerSqlite({ filename: join(dataDir, "verbatim.db") })),
    Effect.orDie
  )

/** A report the CLI published from the recorded store, kept in the server's own store too. */
const publishedHere = Effect.gen(function*() {
  const { env } = yield* Effect.flatMap(tempDir("verbatim-publish-"), record)
  yield* runCli(["replay", "--prompt", "v2", "--session", sessions.one, "--session", sessions.two, "--publish"], env)
  const [report] = yield* kept(env["VERBATIM_DATA_DIR"]!)
  yield* Effect.flatMap(ReplayReports, (reports) => reports.publish({ ...report!, createdAt: 0 }))
  return report!
})

describe("verbatim replay --publish", () => {
  it.scoped("keeps the report it printed as JSON, under an id it names", () =>
    Effect.gen(function*() {
      const { env } = yield* Effect.flatMap(tempDir("verbatim-publish-"), record)
      const args = ["replay", "--prompt", "v2", "--session", sessions.one, "--session", sessions.two]
      const json = yield* runCli([...args, "--json"], env)
      const published = yield* runCli([...args, "--json", "--publish"], env)
      const reports = yield* kept(env["VERBATIM_DATA_DIR"]!)
      expect(reports.map((r) => [r.promptVersion, JSON.parse(r.body)])).toEqual([["v2", JSON.parse(json.stdout)]])
      expect([published.code, published.stdout.trimEnd().split("\n").pop()]).toEqual([0, `report kept for the web pages: /replays/${reports[0]!.id}`])
      // The pages read its verdict and summary as printed.
      const printed = JSON.parse(json.stdout) as { gate: { verdict: string; agreement: unknown; reasons: unknown }; summary: unknown }
      const read = yield* Schema.decodeUnknown(Schema.parseJson(ReplayReportBody))(reports[0]!.body)
      expect([read.gate, read.summary]).toEqual([
        { verdict: printed.gate.verdict, agreement: printed.gate.agreement, reasons: printed.gate.reasons },
        printed.summary
      ])
    }), 120_000)

  it.scoped.skipIf(chromium === undefined)("the operator's page shows the summary, then each changed session's moves, regroupings and cuts", () =>
    Effect.gen(function*() {
      yield* publishedHere
      const { baseUrl } = yield* Harness
      const seen = yield* browse(async (browser) => {
        const page = await browser.newPage()
        await page.setBypassCSP(true)
        await page.goto(`${baseUrl}/signin?next=%2Freplays`)
        await page.type("#token", apiToken)
        await Promise.all([page.waitForNavigation(), page.click("main button[type=submit]")])
        const listed = await page.$$eval("main ul.list a", (as) => as.map((a) => a.textContent))
        await Promise.all([page.waitForNavigation(), page.click("main ul.list a")])
        const verdict = await page.$eval("[data-verdict]", (p) => p.textContent)
        const summary = await page.$$eval("[data-summary] dd", (dds) => dds.map((d) => d.textContent))
        const changed = await page.$$eval("[data-replay-session=changed]", (items) => items.map((i) => i.textContent))
        const problems = await violations(page)
        await shoot(page, "r1-replay-report")
        return { listed, verdict, summary, changed, problems }
      })
      expect(seen).toEqual({
        listed: ["1 January 1970, 00:00 (UTC) · prompt v2"],
        verdict: "FAIL: the candidate files 80.0% of the messages where their users filed them, the live plans 100.0%.",
        summary: ["1", "2", "2", "0, 1", "2000 in / 210 out; 1800 in / 180 out"],
        changed: [
          `${sessions.one}: changed · scripted · 1100 in / 120 out (live 1000 in / 100 out)` +
          "message 4 moved from Tom to (unattached)regrouped: [1 2] [3] → [1 2 3]" +
          "no longer cut from message 3: remind me on Friday: newly cut from message 3: remind me on Friday:",
          `${sessions.two}: changed · scripted · 900 in / 90 out (live 800 in / 80 out)regrouped: – → [2]question resolved (unclear): messages 2`
        ],
        problems: []
      })
    }).pipe(Effect.provide(layer([]))), 120_000)

  it.scoped("under VERBATIM_OPERATOR_READS=none the page keeps each session's status and tokens, and leaves out the changes that quote its user's words", () =>
    Effect.gen(function*() {
      const report = yield* publishedHere
      const { baseUrl } = yield* Harness
      const seen = yield* Effect.promise(async () => {
        const signIn = await fetch(`${baseUrl}/signin`, { method: "POST", body: new URLSearchParams({ token: apiToken }), redirect: "manual" })
        const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!
        const page = await (await fetch(`${baseUrl}/replays/${report.id}`, { headers: { cookie } })).text()
        const text = (html: string) => unescapeHtml(html.replace(/<[^>]+>/g, ""))
        return {
          withheld: text(/<p class="muted" data-withheld>([\s\S]*?)<\/p>/.exec(page)?.[1] ?? ""),
          changed: [...page.matchAll(/<li data-replay-session="changed">([\s\S]*?)<\/li>/g)].map((m) => text(m[1]!))
        }
      })
      expect(seen).toEqual({
        withheld: `Other users' sessions are shown without their changes: ${notReadMessage}`,
        changed: [
          `${sessions.one}: changed · scripted · 1100 in / 120 out (live 1000 in / 100 out) (changes not shown)`,
          `${sessions.two}: changed · scripted · 900 in / 90 out (live 800 in / 80 out) (changes not shown)`
        ]
      })
    }).pipe(Effect.provide(layer([], { settings: { operatorReads: "none" } }))), 120_000)
})
