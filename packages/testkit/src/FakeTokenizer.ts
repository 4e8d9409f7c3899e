/** A tokenizer for tests where one UTF-16 code unit is one token, so budgets are exact. */
import type { TokenCounter } from "@verbatim/domain/TokenCounter"
import { make, Tokenizer, type TokenRequest } from "@verbatim/planner/Tokenizer"
import { Layer } from "effect"

/**
 * One token per UTF-16 code unit (`text.length`): an astral emoji costs 2, so examples can
 * put a surrogate pair right at a budget's edge.
 */
export const countUnits: TokenCounter = (text) => text.length

/** The texts added up with no framing: system, each tool's JSON, each message's content. */
export const countRequestUnits = (request: TokenRequest): number =>
  countUnits(request.system) +
  request.tools.reduce<number>((sum, tool) => sum + countUnits(JSON.stringify(tool) ?? ""), 0) +
  request.messages.reduce((sum, message) => sum + countUnits(message.content), 0)

/** `Tokenizer` counting one token per UTF-16 code unit. */
export const layer: Layer.Layer<Tokenizer> = Layer.succeed(Tokenizer, make(countUnits, countRequestUnits))
