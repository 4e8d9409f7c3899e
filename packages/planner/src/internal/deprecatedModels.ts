/** The SDK's own table of deprecated models and their end-of-life dates. */
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

const require = createRequire(import.meta.url)

/**
 * Model name to end-of-life date, as the installed SDK lists them. The table is not exported, so
 * it is read from its file; an SDK without it is an empty table, never a failure to start.
 */
export const deprecatedModels = (): Readonly<Record<string, string>> => {
  try {
    const sdk = dirname(require.resolve("@anthropic-ai/sdk"))
    const table = (require(join(sdk, "internal/data/deprecated-models.js")) as { DEPRECATED_MODELS?: Record<string, string> })
      .DEPRECATED_MODELS
    return table ?? {}
  } catch {
    return {}
  }
}
