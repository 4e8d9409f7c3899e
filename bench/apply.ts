/** Benchmark: `applyPlan` on 10,000 and 1,000 messages with an adversarial plan of one note per five messages. */
import { applyPlan } from "@verbatim/domain/ApplyPlan/ApplyPlan"
import { MessageId } from "@verbatim/domain/Ids"
import type { MessageText } from "@verbatim/domain/Message"
import type { Plan, PlanNote } from "@verbatim/domain/Plan"
import { performance } from "node:perf_hooks"

/** A seeded generator (mulberry32) so every run measures the same input. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const words = ["Alice", "said", "the", "garden", "needs", "work", "👍", "👨‍👩‍👧", "café", "e\u0301", "\r\n", "remind me", "Bob", "tomorrow."]

const session = (count: number, next: () => number): Array<MessageText> =>
  Array.from({ length: count }, (_, i) => {
    const parts = Array.from({ length: 10 + Math.floor(next() * 40) }, () => words[Math.floor(next() * words.length)]!)
    return { id: MessageId.make(`m${i + 1}`), seq: i + 1, text: ` ${parts.join(" ")} ` }
  })

/**
 * One note per five messages: overlapping neighbours within an owner (chains to merge), a few
 * seqs claimed across owners, unknown and repeated seqs, and directives that match, miss,
 * overlap, repeat, span two messages or are empty.
 */
const adversarialPlan = (messages: ReadonlyArray<MessageText>, next: () => number): Plan => {
  const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]!
  const count = messages.length
  const text = (seq: number) => messages[seq - 1]?.text ?? ""
  const notes: Array<PlanNote> = []
  for (let first = 1; first <= count; first += 5) {
    const seqs = [first, first + 1, first + 2, first + 3, first + 4].filter((seq) => seq <= count)
    if (next() < 0.3) seqs.push(first + 5)
    if (next() < 0.05) seqs.push(count + 1 + first, 0, -first, first + 0.5)
    if (next() < 0.1) seqs.push(first)
    const at = Math.floor(next() * 20)
    const body = text(first)
    notes.push({
      sourceItemSeqs: seqs,
      directives: [
        body.slice(at, at + 12),
        body.slice(at + 6, at + 20),
        body.slice(at, at + 12),
        pick(["remind me", "", "not in any message", text(first + 1).slice(-5) + "\n\n" + text(first + 2).slice(0, 5)])
      ]
    })
  }
  const owners = [
    { contactId: "c1", name: "Alice" },
    { contactId: null, name: "Bob" },
    { contactId: null, name: " bob " },
    { contactId: "c2", name: "Carol" }
  ]
  const people = owners.map((owner) => ({ ...owner, notes: [] as Array<PlanNote> }))
  const unattached: Array<PlanNote> = []
  notes.forEach((note, i) => (i % 5 === 4 ? unattached : people[Math.floor((i / 50) % people.length)]!.notes).push(note))
  const contestedSeqs = Array.from({ length: Math.ceil(count / 100) }, () => 1 + Math.floor(next() * count))
  return {
    people,
    unattached,
    unclear: [{ sourceItemSeqs: contestedSeqs, candidates: ["Alice", "Dan"] }],
    botMessages: Array.from({ length: Math.ceil(count / 50) }, () => 1 + Math.floor(next() * count))
  }
}

const quantile = (samples: ReadonlyArray<number>, q: number): number => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length * q)]!
}
const median = (samples: ReadonlyArray<number>): number => quantile(samples, 0.5)
/** The mean counts every garbage-collector pause a run included; the median can fall on either side of them. */
const mean = (samples: ReadonlyArray<number>): number => samples.reduce((sum, x) => sum + x, 0) / samples.length

const setup = (count: number) => {
  const next = random(count)
  const messages = session(count, next)
  return { count, messages, plan: adversarialPlan(messages, next), samples: [] as Array<number>, cpu: [] as Array<number> }
}

const time = (input: ReturnType<typeof setup>): void => {
  const start = performance.now()
  const cpu = process.cpuUsage()
  applyPlan(input.messages, input.plan)
  const used = process.cpuUsage(cpu)
  input.samples.push(performance.now() - start)
  input.cpu.push((used.user + used.system) / 1000)
}

interface Summary {
  readonly ms: number
  readonly cpuMs: number
  readonly meanMs: number
  readonly meanCpuMs: number
}

const report = ({ count, cpu, messages, plan, samples }: ReturnType<typeof setup>): Summary => {
  const decisions = applyPlan(messages, plan)
  const planNotes = plan.people.reduce((sum, person) => sum + person.notes.length, plan.unattached.length)
  const ms = median(samples)
  console.log(
    `${count} messages, ${planNotes} plan notes -> ${decisions.notes.length} notes, ${decisions.questions.length} questions, ` +
      `${decisions.warnings.length} warnings: median ${ms.toFixed(2)} ms wall, ${median(cpu).toFixed(2)} ms CPU ` +
      `(quartiles ${quantile(cpu, 0.25).toFixed(2)}–${quantile(cpu, 0.75).toFixed(2)}); ` +
      `mean ${mean(samples).toFixed(2)} ms wall, ${mean(cpu).toFixed(2)} ms CPU, over ${samples.length} runs`
  )
  return { ms, cpuMs: median(cpu), meanMs: mean(samples), meanCpuMs: mean(cpu) }
}

// Sizes are timed in strict alternation, so every timed run follows a run of the other size and
// a busy neighbour on the shared machine slows both alike. Timing one size several times in a
// row favours its later runs, whose data the previous identical run left in cache (a 1,000-message
// run right after a 10,000-message one took about 1.5 times the CPU time of the ones after it).
const small = setup(1_000)
const large = setup(10_000)
for (let i = 0; i < 50; i++) {
  applyPlan(small.messages, small.plan)
  applyPlan(large.messages, large.plan)
}
for (let i = 0; i < 400; i++) {
  time(small)
  time(large)
}
const smallRun = report(small)
const largeRun = report(large)
const ratio = (large: number, small: number): string => (large / small).toFixed(2)
console.log(
  `ratio 10x/1x of medians: ${ratio(largeRun.ms, smallRun.ms)} wall, ${ratio(largeRun.cpuMs, smallRun.cpuMs)} CPU; ` +
    `of means: ${ratio(largeRun.meanMs, smallRun.meanMs)} wall, ${ratio(largeRun.meanCpuMs, smallRun.meanCpuMs)} CPU ` +
    `(target <= 12); at 10,000: median ${largeRun.ms.toFixed(2)} ms, mean ${largeRun.meanMs.toFixed(2)} ms (target < 25)`
)
