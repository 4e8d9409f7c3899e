/** `verbatim demo` (`npm run demo`) as a subprocess with an empty environment: offline, no keys. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { normalise, runCli } from "./CliHarness.js"

describe("verbatim demo", () => {
  it.effect("posts the bundled conversation through the webhook and prints notes, a question, an audit and the accounting", () =>
    Effect.gen(function*() {
      const run = yield* runCli(["demo"], {})
      const stdout = normalise(run.stdout)
        .replace(/127\.0\.0\.1:\d+/, "127.0.0.1:<port>")
        .replace(/\/tmp\/verbatim-demo-\w+/, "<tmp>")
      expect({ code: run.code, stdout }).toEqual({
        code: 0,
        stdout: [
          "Verbatim demo: the server on http://127.0.0.1:<port>, a temporary store in <tmp>, recorded model answers",
          "posted 5 Telegram updates to POST /webhooks/telegram: HTTP 200 200 200 200 200",
          "waiting for the session to go idle (1 s), close and be planned…",
          "",
          "Notes",
          "  Ana",
          "    Ana starts at the clinic on 3 March. She would like a desk by the window.",
          "",
          "    Ana's birthday is 4 April",
          "",
          "  Tom",
          "    I moved to Lisbon! My new number ends in 0199.",
          "",
          "    Tom loves fado and hates early meetings",
          "",
          "Open questions",
          "  (unclear) \"lunch with both of them on Tuesday?\": Ana / Tom?",
          "",
          "Reminders",
          "  \"remind me on Friday\" (message telegram:100000001:502): due 2026-01-02 09:00 UTC, delivered, sent late",
          "",
          "Audit of note_<id>",
          "note note_<id> about Ana (person_<id>)",
          "session telegram:100000001:100000001:1, user telegram:100000001, merged from 1 plan note(s)",
          "",
          "Ana starts at the clinic on 3 March. She would like a desk by the window. ⟦seq 1 · telegram:100000001:501 · <time>⟧",
          "",
          "~~remind me on Friday: ~~ Ana's birthday is 4 April ⟦seq 2 · telegram:100000001:502 · <time>⟧",
          "",
          "instructions cut:",
          "  seq 2: ~~remind me on Friday: ~~",
          "reminders set:",
          "  \"remind me on Friday\": due 2026-01-02 09:00 UTC, delivered (reminder r1v3wcm35zt80b5e3qndw5)",
          "plan plan_<id>: prompt v2 (sha256 d46ff587b72a2f38141e82ea34c618bb7a6c84f1180d2d92b17fbe6d617b13f4), " +
          "model claude-sonnet-5-5, tokens 2140 in / 96 out",
          "",
          "Accounting",
          "session telegram:100000001:100000001:1 (planned), user telegram:100000001, 5 message(s)",
          "  seq 1 telegram:100000001:501: note note_<id>",
          "  seq 2 telegram:100000001:502: note note_<id>; cut \"remind me on Friday: \"",
          "  seq 3 telegram:100000001:503: note note_<id>",
          "  seq 4 telegram:100000001:504: note note_<id>",
          "  seq 5 telegram:100000001:505: question q_<id>",
          "reminders the plans proposed (1):",
          "  seq 2 \"remind me on Friday\": scheduled as reminder r1v3wcm35zt80b5e3qndw5, delivered now",
          ""
        ].join("\n")
      })
    }))
})
