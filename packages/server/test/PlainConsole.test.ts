/** The CLI's help and errors carry no ANSI styling once piped, and keep it on a terminal. */
import { describe, expect, it } from "@effect/vitest"
import { Console, Effect } from "effect"
import * as PlainConsole from "../src/PlainConsole.js"
import { runCli } from "./CliHarness.js"

const styled = "\u001b[0;1mUSAGE\u001b[0m"

/** A console that records what reaches each stream. */
const recording = (base: Console.Console, lines: Array<string>): Console.Console => ({
  ...base,
  log: (...args) => Effect.sync(() => void lines.push(`out ${args.join(" ")}`)),
  error: (...args) => Effect.sync(() => void lines.push(`err ${args.join(" ")}`))
})

describe("the CLI's console", () => {
  it.effect("strips styling from the streams that are not terminals only", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const base = yield* Console.consoleWith(Effect.succeed)
      const console = PlainConsole.make(recording(base, lines), { stdout: false, stderr: true })
      yield* Effect.withConsole(Effect.zipRight(Console.log(styled), Console.error(styled)), console)
      expect(lines).toEqual(["out USAGE", `err ${styled}`])
    }))

  it.live("`--help` into a pipe is plain text", () =>
    Effect.gen(function*() {
      const run = yield* runCli(["--help"], {})
      expect({ code: run.code, head: run.stdout.split("\n").slice(0, 7), escapes: run.stdout.includes("\u001b") }).toEqual({
        code: 0,
        head: [
          "Usage: verbatim <command> [options]   (verbatim <command> --help for one)",
          "",
          "Verbatim files forwarded messages as notes about people, verbatim.",
          "",
          "Commands:",
          "  serve         Run the service: webhooks, read API and web pages, scheduler and reply outbox.",
          "  rebuild       Rebuild every projection from the event log (on PostgreSQL while capture goes on)."
        ],
        escapes: false
      })
    }))
})
