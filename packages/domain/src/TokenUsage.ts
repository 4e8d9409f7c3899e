/** What one model call cost, in tokens. */
import { Schema } from "effect"

export const TokenUsage = Schema.Struct({
  inputTokens: Schema.Finite,
  outputTokens: Schema.Finite,
  cacheReadTokens: Schema.Finite,
  cacheWriteTokens: Schema.Finite
})
export type TokenUsage = typeof TokenUsage.Type
