/**
 * Benchmark: `fitPrompt` against LangChain's `trimMessages` under one policy (keep the newest
 * messages, keep the system prompt, drop whole messages), one counter (the planner's default
 * estimator) and one budget (half the session), on 10,000 and 100,000 messages; then
 * `truncateText` on one message of up to 10 MB (`cutText.ts`).
 */
import { HumanMessage, type BaseMessage, SystemMessage, trimMessages } from "@langchain/core/messages"
import { Either } from "effect"
import { fitPrompt } from "@verbatim/domain/FitPrompt"
import { droppable, type PromptPart } from "@verbatim/domain/PromptPart"
import { textTokens } from "@verbatim/planner/TokenEstimator"
import { performance } from "node:perf_hooks"
import { benchCut } from "./cutText.js"

/** A seeded generator (mulberry32) so every run measures the same input. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const words = ["Alice", "moved", "to", "Lyon", "and", "the", "garden", "needs", "work", "👍", "café", "文字", "remind me", "Bob", "tomorrow."]
const system = "You file forwarded messages as notes about the people they concern. ".repeat(20)

const session = (count: number): ReadonlyArray<PromptPart> => {
  const next = random(count)
  return Array.from({ length: count }, (_, i) => {
    const text = Array.from({ length: 5 + Math.floor(next() * 30) }, () => words[Math.floor(next() * words.length)]!).join(" ")
    // Older messages give way first, as trimMessages' "last" strategy does.
    return droppable(`seq:${i + 1}`, text, i)
  })
}

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

interface FitCase {
  readonly messages: ReadonlyArray<PromptPart>
  readonly budget: number
}

/**
 * Time `fitPrompt` on every case in strict alternation (one run of each size per round, after
 * warm-up rounds), so no size is timed on caches its own previous run left warm. Returns per
 * case the median and mean time, counter calls per run and the keys kept.
 */
const benchFits = (cases: ReadonlyArray<FitCase>, warmUp: number, rounds: number) => {
  const times = cases.map((): Array<number> => [])
  const calls = cases.map(() => 0)
  const kept = cases.map((): Array<string> => [])
  for (let round = -warmUp; round < rounds; round++) {
    cases.forEach(({ budget, messages }, c) => {
      let counted = 0
      const count = (text: string) => (counted++, textTokens(text))
      const start = performance.now()
      const fitted = Either.getOrThrow(fitPrompt({ system, tools: [], messages }, budget, count))
      const ms = performance.now() - start
      if (round < 0) return
      times[c]!.push(ms)
      calls[c] = counted
      kept[c] = fitted.messages.map((m) => m.key)
    })
  }
  return cases.map((_, c) => ({
    ms: median(times[c]!),
    meanMs: times[c]!.reduce((sum, t) => sum + t, 0) / rounds,
    calls: calls[c]!,
    kept: kept[c]!
  }))
}

class Deadline extends Error {}

/** trimMessages with the same counter; a run that passes `capMs` stops and is reported as unfinished. */
const benchTrim = async (messages: ReadonlyArray<PromptPart>, budget: number, runs: number, capMs: number) => {
  const input: Array<BaseMessage> = [
    new SystemMessage(system),
    ...messages.map((m) => new HumanMessage({ content: m.text, id: m.key }))
  ]
  let calls = 0
  let counted = 0
  let deadline = Number.POSITIVE_INFINITY
  const tokenCounter = (batch: Array<BaseMessage>) => {
    if (performance.now() > deadline) throw new Deadline()
    calls++
    counted += batch.length
    let total = 0
    for (const message of batch) total += textTokens(message.content as string)
    return total
  }
  const trim = () => trimMessages(input, { maxTokens: budget, tokenCounter, strategy: "last", includeSystem: true })
  const times: Array<number> = []
  let kept: Array<string> = []
  for (let i = 0; i < runs; i++) {
    calls = 0
    counted = 0
    const start = performance.now()
    deadline = start + capMs
    try {
      kept = (await trim()).slice(1).map((m) => m.id!)
    } catch (error) {
      if (!(error instanceof Deadline)) throw error
      return { finished: false as const, ms: performance.now() - start, calls, counted }
    }
    times.push(performance.now() - start)
  }
  return { finished: true as const, ms: median(times), calls, counted, kept }
}

const main = async () => {
  const rows: Array<string> = []
  const sizes = [10_000, 100_000] as const
  const cases = sizes.map((n): FitCase => {
    const messages = session(n)
    return { messages, budget: Math.floor((textTokens(system) + messages.reduce((sum, m) => sum + textTokens(m.text), 0)) / 2) }
  })
  const fits = benchFits(cases, 5, 31)
  for (const [c, n] of sizes.entries()) {
    const { budget, messages } = cases[c]!
    const fit = fits[c]!
    rows.push(`| fitPrompt | ${n} | ${budget} | ${fit.ms.toFixed(2)} (mean ${fit.meanMs.toFixed(2)}) | ${fit.calls} | ${fit.calls} | ${fit.kept.length} |`)
    const trim = await benchTrim(messages, budget, n === 10_000 ? 3 : 1, n === 10_000 ? 60_000 : 20_000)
    if (trim.finished) {
      const same = JSON.stringify(trim.kept) === JSON.stringify(fit.kept)
      rows.push(`| trimMessages | ${n} | ${budget} | ${trim.ms.toFixed(2)} | ${trim.calls} | ${trim.counted} | ${trim.kept.length} |`)
      rows.push(`| ratio | ${n} | | ${(trim.ms / fit.ms).toFixed(0)}× | | | same messages kept: ${same} |`)
    } else {
      rows.push(`| trimMessages | ${n} | ${budget} | stopped at ${trim.ms.toFixed(0)} (unfinished) | ${trim.calls} | ${trim.counted} | — |`)
      rows.push(`| ratio | ${n} | | > ${(trim.ms / fit.ms).toFixed(0)}× | | | |`)
    }
  }
  const [small, large] = fits
  console.log(`node ${process.version}, ${new Date().toISOString()}`)
  console.log("| function | messages | budget (tokens) | median ms | counter calls | messages counted | messages kept |")
  console.log("|---|---|---|---|---|---|---|")
  for (const row of rows) console.log(row)
  console.log(
    `\nfitPrompt 100,000 / 10,000 time: ${(large!.ms / small!.ms).toFixed(2)}× of medians, ` +
      `${(large!.meanMs / small!.meanMs).toFixed(2)}× of means (target ≤ 12×)`
  )
  console.log("\n| one message | counter | truncateText median ms | whole-text cut ms | ratio | counter calls | same cut |")
  console.log("|---|---|---|---|---|---|---|")
  for (const row of benchCut()) console.log(row)
}

await main()
