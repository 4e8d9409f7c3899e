/** The default model is one the installed SDK still serves: the next deprecation fails here, not for users. */
import { describe, expect, it } from "@effect/vitest"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { defaultModel } from "../src/AnthropicLanguageModel.js"

const require = createRequire(import.meta.url)
const sdk = dirname(require.resolve("@anthropic-ai/sdk"))
/** The SDK's own table of deprecated models and their end-of-life dates (not exported, so read from its file). */
const deprecated = (require(join(sdk, "internal/data/deprecated-models.js")) as { DEPRECATED_MODELS: Record<string, string> })
  .DEPRECATED_MODELS

describe("the default model", () => {
  it("is not in the SDK's deprecated-models table", () => {
    expect(Object.keys(deprecated)).toContain("claude-sonnet-4-5")
    expect(deprecated[defaultModel]).toBeUndefined()
  })
})
