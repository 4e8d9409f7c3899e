/**
 * The conservative local token estimate: one token per UTF-8 byte, plus fixed framing.
 *
 * Why bytes: Claude's tokenizers are byte-level BPE (the last one Anthropic published, for
 * Claude 2, is; later ones are served only through `count_tokens`). In a byte-level BPE every
 * token stands for at least one byte of the UTF-8 input, so for ANY text — English, code, CJK,
 * emoji, random bytes — tokens ≤ bytes. The bound is never optimistic; its cost is the margin:
 * English prose runs about 4 bytes per token (so this over-counts about 4×), source code and
 * JSON about 3 (3×), CJK 3 bytes per character at roughly 1–1.5 characters per token (2–4×),
 * an emoji 4 bytes (a ZWJ family or a flag 8–25) for 1–4 tokens. Those ratios are the usual
 * published figures, not measured here (this machine has no model key); the
 * `AnthropicTokenCounter` layer returns exact counts and so measures the margin on real text.
 * The framing constants cover what `count_tokens` adds beyond the texts, rounded up.
 */
import { Buffer } from "node:buffer"

/** Added once per request: the turn framing `count_tokens` reports beyond the texts. */
export const requestOverheadTokens = 16

/** Added per message: its role and turn markers. */
export const messageOverheadTokens = 8

/**
 * Added once when tools are present: the tool-use system prompt Anthropic bills for (313–346
 * tokens on current models, per its tool-use pricing notes), rounded up.
 */
export const toolUseOverheadTokens = 400

/** A planning request as the provider counts it. */
export interface TokenRequest {
  readonly system: string
  /** Tool definitions as sent (`{ name, description, input_schema }`). */
  readonly tools: ReadonlyArray<unknown>
  readonly messages: ReadonlyArray<{ readonly role: "user" | "assistant"; readonly content: string }>
}

/** Tokens of one text: never fewer than Claude's count for it (see the module header). */
export const textTokens = (text: string): number => Buffer.byteLength(text, "utf8")

/** Tokens of a whole request: texts by bytes, tools by their JSON bytes, framing added. */
export const requestTokens = (request: TokenRequest): number => {
  let total = requestOverheadTokens + textTokens(request.system)
  if (request.tools.length > 0) {
    total += toolUseOverheadTokens
    for (const tool of request.tools) total += textTokens(JSON.stringify(tool) ?? "")
  }
  for (const message of request.messages) total += messageOverheadTokens + textTokens(message.content)
  return total
}
