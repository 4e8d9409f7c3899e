/**
 * Benchmark: `truncateText` on one long message of mixed scripts and emoji (1 MB and 10 MB of
 * UTF-8), cut to half its tokens, with the planner's estimator (UTF-8 bytes) and with the JSON
 * line the planning request counts (`dataLine`). Beside it, on texts small enough for it to
 * finish, the cut as first written: a binary search over every grapheme boundary of the whole
 * text, which walks the segmenter over all of it.
 */
import { truncateText } from "@verbatim/domain/TruncateText"
import type { TokenCounter } from "@verbatim/domain/TokenCounter"
import { dataLine } from "@verbatim/planner/RenderRequest"
import { textTokens } from "@verbatim/planner/TokenEstimator"
import { mixedText } from "@verbatim/testkit/MixedText"
import { wholeTextCut } from "@verbatim/testkit/WholeTextCut"
import { performance } from "node:perf_hooks"

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const counters: ReadonlyArray<readonly [string, TokenCounter]> = [["bytes", textTokens], ["JSON line", (t) => textTokens(dataLine(t))]]

/** Median milliseconds of `cut` on `text` over `runs` (after one warm-up), and the counter's calls per run. */
const time = (cut: typeof truncateText, text: string, count: TokenCounter, runs: number) => {
  const budget = Math.floor(count(text) / 2)
  let calls = 0
  const counted: TokenCounter = (t) => (calls++, count(t))
  const result = cut(text, budget, counted)
  const times: Array<number> = []
  for (let i = 0; i < runs; i++) {
    calls = 0
    const start = performance.now()
    cut(text, budget, counted)
    times.push(performance.now() - start)
  }
  return { ms: median(times), calls, result }
}

/** Rows of the table: per size and counter, the cut's median and its time per MB. */
export const benchCut = (): ReadonlyArray<string> => {
  const rows: Array<string> = []
  for (const bytes of [12_500, 50_000, 200_000]) {
    const text = mixedText(bytes)
    for (const [name, count] of counters) {
      const now = time(truncateText, text, count, 5)
      const before = time(wholeTextCut, text, count, bytes > 50_000 ? 1 : 3)
      rows.push(
        `| ${(bytes / 1000).toFixed(1)} kB | ${name} | ${now.ms.toFixed(2)} | ${before.ms.toFixed(1)} | ${(before.ms / now.ms).toFixed(0)}× | ${now.calls} / ${before.calls} | ${now.result === before.result} |`
      )
    }
  }
  for (const bytes of [1_000_000, 10_000_000]) {
    const text = mixedText(bytes)
    for (const [name, count] of counters) {
      const now = time(truncateText, text, count, bytes > 1_000_000 ? 5 : 11)
      rows.push(`| ${bytes / 1_000_000} MB | ${name} | ${now.ms.toFixed(1)} (${(now.ms / (bytes / 1_000_000)).toFixed(1)} per MB) | not run | | ${now.calls} | |`)
    }
  }
  return rows
}
