/**
 * Benchmark: `fitPrompt` against LangChain's `trimMessages` under one policy (keep the newest
 * messages, keep the system prompt, drop whole messages), one counter (the planner's default
 * estimator) and one budget (half the session), on 10,000 and 100,000 messages.
 */
import { HumanMessage, type BaseMessage, SystemMessage, trimMessages } from "@langchain/core/messages"
import { Either } from "effect"
import { fitPrompt } from "@verbatim/domain/FitPrompt"
import { droppable, type PromptPart } from "@verbatim/domain/PromptPart"
import { textTokens } from "@verbatim/planner/TokenEstimator"
import { performance } from "node:perf_hooks"

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

const timeRuns = async <A>(runs: number, run: () => A | Promise<A>) => {
  const times: Array<number> = []
  let last: A | undefined
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    last = await run()
    times.push(performance.now() - start)
  }
  return { median: median(times), last: last! }
}

const benchFit = async (messages: ReadonlyArray<PromptPart>, budget: number, runs: number) => {
  let calls = 0
  const count = (text: string) => (calls++, textTokens(text))
  await timeRuns(3, () => fitPrompt({ system, tools: [], messages }, budget, count))
  calls = 0
  const { median: ms, last } = await timeRuns(runs, () => Either.getOrThrow(fitPrompt({ system, tools: [], messages }, budget, count)))
  return { ms, calls: calls / runs, kept: last.messages.map((m) => m.key) }
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
  const fits: Record<number, number> = {}
  for (const n of [10_000, 100_000]) {
    const messages = session(n)
    const budget = Math.floor((textTokens(system) + messages.reduce((sum, m) => sum + textTokens(m.text), 0)) / 2)
    const fit = await benchFit(messages, budget, n === 10_000 ? 21 : 11)
    fits[n] = fit.ms
    rows.push(`| fitPrompt | ${n} | ${budget} | ${fit.ms.toFixed(2)} | ${fit.calls} | ${fit.calls} | ${fit.kept.length} |`)
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
  console.log(`node ${process.version}, ${new Date().toISOString()}`)
  console.log("| function | messages | budget (tokens) | median ms | counter calls | messages counted | messages kept |")
  console.log("|---|---|---|---|---|---|---|")
  for (const row of rows) console.log(row)
  console.log(`\nfitPrompt 100,000 / 10,000 time: ${(fits[100_000]! / fits[10_000]!).toFixed(2)}× (target ≤ 12×)`)
}

await main()
