/** Fitting one planning request to its token budget: drop whole parts by rank, cut at most one. */
import { Data, Either } from "effect"
import type { PromptPart } from "./PromptPart.js"
import type { TokenCounter } from "./TokenCounter.js"
import { truncateText } from "./TruncateText.js"

/** The request before fitting: the system prompt, tool definitions and user content in order. */
export interface PromptInput<T extends PromptPart = PromptPart, M extends PromptPart = PromptPart> {
  readonly system: string
  readonly tools: ReadonlyArray<T>
  readonly messages: ReadonlyArray<M>
}

/** What fitting took away, for the caller to record (plan events, spans). */
export interface FitReport {
  /** Keys of the tool definitions dropped whole, in the order they were dropped. */
  readonly droppedTools: ReadonlyArray<string>
  /** Keys of the messages dropped whole, in the order they were dropped. */
  readonly droppedMessages: ReadonlyArray<string>
  /** Tokens of every dropped part, plus the tokens the cut took from its message. */
  readonly droppedTokens: number
  /** Key of the one message shown cut and marked, if any. */
  readonly cut: string | null
  /** Tokens of the fitted request: each kept part counted once, added up. */
  readonly tokens: number
}

/** The request after fitting: a subsequence of the input, contents unmodified but for `report.cut`. */
export interface FittedPrompt<T extends PromptPart = PromptPart, M extends PromptPart = PromptPart>
  extends PromptInput<T, M>
{
  readonly report: FitReport
}

/** The parts that must survive cannot fit, however much else gives way. */
export class FitError extends Data.TaggedError("FitError")<{
  readonly reason: "system-exceeds-budget" | "required-exceeds-budget"
  readonly budget: number
  /** Tokens of what had to be kept (the system prompt alone, or every part that must survive). */
  readonly required: number
  readonly message: string
}> {}

interface Entry {
  readonly part: PromptPart
  /** Position in its own list (tools or messages). */
  readonly index: number
  readonly tokens: number
  readonly kind: "tool" | "message"
  readonly required: boolean
}

const fitError = (reason: FitError["reason"], budget: number, required: number): FitError =>
  new FitError({
    reason,
    budget,
    required,
    message: reason === "system-exceeds-budget"
      ? `The system prompt alone takes ${required} tokens, over the budget of ${budget}`
      : `The parts that must survive take ${required} tokens; cutting one message cannot bring them within the budget of ${budget}`
  })

/**
 * Fits a request within `budget` tokens. The system prompt is kept verbatim; the last message
 * and every part whose `dropRank` is `null` survive; other parts are dropped whole, lowest
 * rank first, until the rest fits; only then is the largest surviving message cut (marked, and
 * grapheme-safe). Each part is counted once, so the counter runs O(n) times. A request that
 * fits is returned unchanged, which makes fitting idempotent.
 */
export const fitPrompt = <T extends PromptPart, M extends PromptPart>(
  input: PromptInput<T, M>,
  budget: number,
  count: TokenCounter
): Either.Either<FittedPrompt<T, M>, FitError> => {
  const systemTokens = count(input.system)
  if (systemTokens > budget) return Either.left(fitError("system-exceeds-budget", budget, systemTokens))
  const last = input.messages.length - 1
  const entries: Array<Entry> = []
  input.tools.forEach((part, index) => {
    entries.push({ part, index, tokens: count(part.text), kind: "tool", required: part.dropRank === null })
  })
  input.messages.forEach((part, index) => {
    const required = part.dropRank === null || index === last
    entries.push({ part, index, tokens: count(part.text), kind: "message", required })
  })
  let total = systemTokens
  for (const entry of entries) total += entry.tokens
  // Array.prototype.sort is stable, so equal ranks keep prompt order: tools, then messages.
  const candidates = entries.filter((entry) => !entry.required).sort((a, b) => rank(a) - rank(b))
  const dropped: Array<Entry> = []
  for (const entry of candidates) {
    if (total <= budget) break
    dropped.push(entry)
    total -= entry.tokens
  }
  let droppedTokens = dropped.reduce((sum, entry) => sum + entry.tokens, 0)
  let cut: { readonly entry: Entry; readonly text: string } | null = null
  if (total > budget) {
    const victim = largestMessage(entries.filter((entry) => entry.required && entry.kind === "message"))
    const room = victim === undefined ? -1 : budget - (total - victim.tokens)
    if (victim === undefined || room < 0) return Either.left(fitError("required-exceeds-budget", budget, total))
    const text = truncateText(victim.part.text, room, count)
    const tokens = count(text)
    cut = { entry: victim, text }
    droppedTokens += victim.tokens - tokens
    total += tokens - victim.tokens
  }
  const goneTools = new Set(dropped.filter((entry) => entry.kind === "tool").map((entry) => entry.index))
  const goneMessages = new Set(dropped.filter((entry) => entry.kind === "message").map((entry) => entry.index))
  const cutIndex = cut === null ? -1 : cut.entry.index
  const cutText = cut === null ? "" : cut.text
  const messages: Array<M> = []
  input.messages.forEach((part, index) => {
    if (index === cutIndex) messages.push({ ...part, text: cutText })
    else if (!goneMessages.has(index)) messages.push(part)
  })
  return Either.right({
    system: input.system,
    tools: input.tools.filter((_, index) => !goneTools.has(index)),
    messages,
    report: {
      droppedTools: dropped.filter((entry) => entry.kind === "tool").map((entry) => entry.part.key),
      droppedMessages: dropped.filter((entry) => entry.kind === "message").map((entry) => entry.part.key),
      droppedTokens,
      cut: cut === null ? null : cut.entry.part.key,
      tokens: total
    }
  })
}

/** Only droppable entries are ranked; a required one never reaches the sort. */
const rank = (entry: Entry): number => entry.part.dropRank ?? Number.POSITIVE_INFINITY

/** The message whose cut frees the most room; the later one among equals. */
const largestMessage = (entries: ReadonlyArray<Entry>): Entry | undefined =>
  entries.reduce<Entry | undefined>((best, entry) => (best === undefined || entry.tokens >= best.tokens ? entry : best), undefined)
