/** Progress off a terminal: a plain line each tenth of the way and at the end, with the rate. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as Progress from "../src/Progress.js"

describe("Progress", () => {
  it.scoped("prints a line every tenth of the way and at the end, with counts and rate", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const progress = yield* Progress.start("import chat.txt", 25, { tty: false, write: (line) => lines.push(line) })
      for (let i = 0; i < 25; i++) {
        yield* TestClock.adjust("100 millis")
        yield* progress.advance()
      }
      expect(lines).toEqual([3, 6, 9, 12, 15, 18, 21, 24, 25].map((n) => `import chat.txt: ${n}/25 (10/s)\n`))
    }))

  it.scoped("counts advances of more than one", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const progress = yield* Progress.start("replay", 4, { tty: false, write: (line) => lines.push(line) })
      yield* TestClock.adjust("1 second")
      yield* progress.advance(4)
      expect(lines).toEqual(["replay: 4/4 (4/s)\n"])
    }))
})
