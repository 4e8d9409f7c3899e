/**
 * `verbatim replay` on reminders, as a subprocess over a recorded store: the candidate's reminders
 * added, lost and moved in time against the live plans', judged by what the user did with the
 * live ones, in every format the report is printed in and on the page that shows a kept report.
 */
import { describe, expect, it } from "@effect/vitest"
import { ReplayReportBody } from "@verbatim/domain/ReplayReport"
import { DateTime, Effect, Schema } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { runCli, tempDir } from "./CliHarness.js"
import { record, session } from "./ReplayRemindersFixture.js"
import { replayPage } from "../src/Web/ReplayPages.js"

const recorded = Effect.flatMap(tempDir("verbatim-replay-reminders-"), record)
const args = ["replay", "--prompt", "v3", "--session", session]

const reason = "1 reminder(s) the users marked done lost or moved to another time"
const changes = [
  "added: seq 4 \"book the dentist next week\" due 2026-03-30T09:00",
  "lost: seq 1 \"remind me on Friday to send Ana the deck\" due 2026-03-27T09:00 (the user marked it done: a regression)",
  "lost: seq 2 \"call the plumber tomorrow\" due 2026-03-26T09:00 (the user cancelled it straight away: an improvement)",
  "moved: seq 3 \"remind me the day before\" from 2026-04-03T09:00 to 2026-04-03T18:00"
]
const totals = "1 added, 2 lost, 1 moved, 0 unchanged; by what the users did: 1 regression(s), 1 improvement(s)"

const text = [
  "replay under prompt v3: 1 session(s), 1 changed, 0 unchanged, 0 failed, 0 skipped",
  "  notes moved between people: 0",
  "  sessions regrouped: 0",
  "  instructions cut differently: 0",
  "  questions added: 0, resolved: 0",
  `  reminders: ${totals}`,
  "  tokens: 750 in / 60 out (live plans: 700 in / 70 out)",
  "  time in model calls: candidate 0.0 s, live 0.0 s",
  "  agreement with the users' outcome: 100.0% (live plans 100.0%, noise floor 0.0%; invariant violations 0): FAIL",
  `  why: ${reason}`,
  "",
  `session ${session}: changed (model scripted; tokens 750 in / 60 out, live 700 in / 70 out)`,
  ...changes.map((c) => `  reminder ${c}`),
  ""
].join("\n")

const reminders = {
  added: [{ seq: 4, quote: "book the dentist next week", local: "2026-03-30T09:00", label: null, effect: null }],
  lost: [
    { seq: 1, quote: "remind me on Friday to send Ana the deck", local: "2026-03-27T09:00", label: "done", effect: "regression" },
    { seq: 2, quote: "call the plumber tomorrow", local: "2026-03-26T09:00", label: "cancelled", effect: "improvement" }
  ],
  moved: [{ seq: 3, quote: "remind me the day before", from: "2026-04-03T09:00", to: "2026-04-03T18:00", label: null, effect: null }],
  unchanged: 0,
  regressions: 1,
  improvements: 1
}

describe("verbatim replay on reminders", () => {
  it.scoped("a reminder the user marked done and the candidate lost fails the gate; one they cancelled straight away and it dropped is an improvement", () =>
    Effect.gen(function*() {
      const env = yield* recorded
      const printed = yield* runCli(args, env)
      expect({ code: printed.code, stdout: printed.stdout }).toEqual({ code: 0, stdout: text })
      const failing = yield* runCli([...args, "--fail-on-regression"], env)
      expect({ code: failing.code, stdout: failing.stdout, error: failing.stderr.split("\n").slice(-2) })
        .toEqual({ code: 1, stdout: text, error: [`verbatim: regression under prompt v3: ${reason}`, ""] })

      const json = JSON.parse((yield* runCli([...args, "--json"], env)).stdout)
      expect({ reasons: json.gate.reasons, summary: json.summary.reminders, session: json.sessions[0].reminders, status: json.sessions[0].status }).toEqual({
        reasons: [reason],
        summary: { added: 1, lost: 2, moved: 1, unchanged: 0, regressions: 1, improvements: 1 },
        session: reminders,
        status: "changed"
      })

      const markdown = yield* runCli([...args, "--format", "markdown"], env)
      expect(markdown.stdout.split("\n").slice(2)).toEqual([
        "Agreement with the users' own outcome: **100.0%** (live plans 100.0%, noise floor 0.0%). 1 session(s): 1 changed, 0 unchanged, 0 failed, 0 skipped. " +
        "Invariant violations: 0. New people: 0 (0 where the user had them). Tokens: 750 in / 60 out, live plans 700 in / 70 out. " +
        `Time in model calls: candidate 0.0 s, live 0.0 s. Reminders: ${totals}.`,
        `- ${reason}`,
        "",
        "| plans | correct | wrong | asked | unlabelled |",
        "|---|---:|---:|---:|---:|",
        "| live | 4 | 0 | 0 | 0 |",
        "| candidate | 4 | 0 | 0 | 0 |",
        "",
        "#### Changed sessions (1)",
        "",
        `**\`${session}\`**: 4 of 4 agree (live 4 of 4)`,
        "",
        "Every message keeps its owner and its cuts.",
        "",
        ...changes.map((c) => `- reminder ${c}`),
        "",
        "",
        ""
      ])

      const junit = yield* runCli([...args, "--format", "junit"], env)
      const escaped = (line: string) => line.replace(/"/g, "&quot;")
      expect(junit.stdout).toEqual([
        `<?xml version="1.0" encoding="UTF-8"?>`,
        `<testsuites name="verbatim replay" tests="2" failures="2" skipped="0">`,
        `  <testsuite name="replay under prompt v3 (${json.run.prompt.hash})" tests="2" failures="2" skipped="0">`,
        `    <testcase classname="replay.v3" name="gate">`,
        `      <failure message="${reason}">${reason}</failure>`,
        "    </testcase>",
        `    <testcase classname="replay.v3" name="${session}">`,
        `      <failure message="1 reminder(s) the user marked done lost or moved">1 reminder(s) the user marked done lost or moved`,
        ...changes.slice(0, 3).map((c) => escaped(`reminder ${c}`)),
        `${escaped(`reminder ${changes[3]!}`)}</failure>`,
        "    </testcase>",
        "  </testsuite>",
        "</testsuites>",
        "",
        ""
      ].join("\n"))

      // `replay compare` sets the reminders of two reports side by side: here against one whose candidate kept them all.
      const dir = env["VERBATIM_DATA_DIR"]!
      const kept = { ...reminders, added: [], lost: [], moved: [], unchanged: 3, regressions: 0, improvements: 0 }
      writeFileSync(join(dir, "a.json"), JSON.stringify(json))
      writeFileSync(join(dir, "b.json"), JSON.stringify({
        ...json,
        summary: { ...json.summary, reminders: { added: 0, lost: 0, moved: 0, unchanged: 3, regressions: 0, improvements: 0 } },
        sessions: [{ ...json.sessions[0], reminders: kept }]
      }))
      const same = "0 added, 0 lost, 0 moved, 3 unchanged; by what the users did: 0 regression(s), 0 improvement(s)"
      const compared = yield* runCli(["replay", "compare", join(dir, "a.json"), join(dir, "b.json")], env)
      expect({ code: compared.code, reminders: compared.stdout.split("\n").slice(5) }).toEqual({
        code: 0,
        reminders: [
          `reminders: A ${totals}`,
          `           B ${same}`,
          "sessions whose reminders differ:",
          `  ${session}: A ${totals}; B ${same}`,
          "",
          ""
        ]
      })

      // The page of a kept report lists the same changes under the session, and the totals in the summary.
      const body = yield* Schema.decodeUnknown(ReplayReportBody)(json)
      const page = replayPage({ id: "replay_1", createdAt: DateTime.unsafeMake(0), promptVersion: "v3", body: "" }, body, "UTC").value
      expect({
        summary: page.match(/<dt>Reminders<\/dt><dd>(.*?)<\/dd>/)?.[1],
        items: [...page.matchAll(/<li data-reminder>(.*?)<\/li>/g)].map((m) => m[1])
      }).toEqual({ summary: totals, items: changes.map((c) => `reminder ${c}`.replace(/"/g, "&quot;")) })
    }), 120_000)

  it.scoped("an older kept report, without reminders, still reads", () =>
    Effect.gen(function*() {
      const env = yield* recorded
      const json = JSON.parse((yield* runCli([...args, "--json"], env)).stdout)
      const { reminders: _summary, ...summary } = json.summary
      const { reminders: _session, ...older } = json.sessions[0]
      const body = yield* Schema.decodeUnknown(ReplayReportBody)({ ...json, summary, sessions: [older] })
      expect([body.summary.reminders, body.sessions[0]!.status, "reminders" in body.sessions[0]!]).toEqual([undefined, "changed", false])
    }), 120_000)
})
