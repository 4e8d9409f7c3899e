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
 *
 * Parts are numbered tools first, then messages, and their counts, ranks and fates kept in
 * typed arrays indexed by that number: a session of 100,000 messages allocates no object per
 * part beyond the result.
 */
export const fitPrompt = <T extends PromptPart, M extends PromptPart>(
  input: PromptInput<T, M>,
  budget: number,
  count: TokenCounter
): Either.Either<FittedPrompt<T, M>, FitError> => {
  const systemTokens = count(input.system)
  if (systemTokens > budget) return Either.left(fitError("system-exceeds-budget", budget, systemTokens))
  const { messages, tools } = input
  const toolCount = tools.length
  const size = toolCount + messages.length
  const lastPart = size - 1
  const partAt = (i: number): PromptPart => (i < toolCount ? tools[i]! : messages[i - toolCount]!)
  const tokens = new Float64Array(size)
  const ranks = new Float64Array(size)
  const required = new Uint8Array(size)
  // Droppable parts in prompt order; sorted below by rank (stable, so prompt order among equals).
  const candidates: Array<number> = []
  let total = systemTokens
  for (let i = 0; i < size; i++) {
    const part = partAt(i)
    tokens[i] = count(part.text)
    total += tokens[i]!
    if (part.dropRank === null || (i === lastPart && i >= toolCount)) {
      required[i] = 1
    } else {
      ranks[i] = part.dropRank
      candidates.push(i)
    }
  }
  if (!ascending(candidates, ranks)) candidates.sort((a, b) => ranks[a]! - ranks[b]!)
  const gone = new Uint8Array(size)
  const droppedTools: Array<string> = []
  const droppedMessages: Array<string> = []
  let droppedTokens = 0
  for (const i of candidates) {
    if (total <= budget) break
    gone[i] = 1
    if (i < toolCount) droppedTools.push(tools[i]!.key)
    else droppedMessages.push(messages[i - toolCount]!.key)
    total -= tokens[i]!
    droppedTokens += tokens[i]!
  }
  let cutIndex = -1
  let cutText = ""
  if (total > budget) {
    const victim = largestRequiredMessage(tokens, required, toolCount)
    const room = victim === -1 ? -1 : budget - (total - tokens[victim]!)
    if (victim === -1 || room < 0) return Either.left(fitError("required-exceeds-budget", budget, total))
    cutText = truncateText(partAt(victim).text, room, count)
    const cutTokens = count(cutText)
    cutIndex = victim - toolCount
    droppedTokens += tokens[victim]! - cutTokens
    total += cutTokens - tokens[victim]!
  }
  const keptMessages = new Array<M>(messages.length - droppedMessages.length)
  for (let index = 0, k = 0; index < messages.length; index++) {
    if (index === cutIndex) keptMessages[k++] = { ...messages[index]!, text: cutText }
    else if (gone[toolCount + index] === 0) keptMessages[k++] = messages[index]!
  }
  return Either.right({
    system: input.system,
    tools: tools.filter((_, index) => gone[index] === 0),
    messages: keptMessages,
    report: {
      droppedTools,
      droppedMessages,
      droppedTokens,
      cut: cutIndex === -1 ? null : messages[cutIndex]!.key,
      tokens: total
    }
  })
}

/** The required message whose cut frees the most room (the later one among equals), or -1. */
const largestRequiredMessage = (tokens: Float64Array, required: Uint8Array, firstMessage: number): number => {
  let best = -1
  for (let i = firstMessage; i < tokens.length; i++) {
    if (required[i] === 1 && (best === -1 || tokens[i]! >= tokens[best]!)) best = i
  }
  return best
}

/**
 * Whether the parts are already in rank order (a session ranked oldest first is), so the stable
 * sort would leave them as they are. A NaN rank answers false and leaves the order to the sort.
 */
const ascending = (parts: ReadonlyArray<number>, ranks: Float64Array): boolean => {
  for (let i = 1; i < parts.length; i++) if (!(ranks[parts[i - 1]!]! <= ranks[parts[i]!]!)) return false
  return true
}
