/** The API token: from the environment when set, else created once in the data folder and reused. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { statSync } from "node:fs"
import { join } from "node:path"
import { tempDir } from "@verbatim/testkit/TempDir"
import { ApiToken, fromFile } from "../src/ApiToken.js"
import { ServerConfig } from "../src/ServerConfig.js"

describe("ApiToken", () => {
  it.scoped("is generated once, kept with mode 0600, and read back on the next start", () =>
    Effect.gen(function*() {
      const dir = join(yield* tempDir("verbatim-token-"), "nested")
      const first = yield* fromFile(dir)
      const second = yield* fromFile(dir)
      expect([first.generated, second.generated]).toEqual([true, false])
      expect(Redacted.value(second.token)).toBe(Redacted.value(first.token))
      expect(Redacted.value(first.token)).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(statSync(join(dir, "api-token")).mode & 0o777).toBe(0o600)
    }))

  it.effect("VERBATIM_API_TOKEN, when set, is the token", () =>
    Effect.gen(function*() {
      const resolved = yield* ApiToken
      expect({ ...resolved, token: Redacted.value(resolved.token) }).toEqual({
        token: "from-env",
        source: "environment",
        path: null,
        generated: false
      })
    }).pipe(Effect.provide(ApiToken.layer.pipe(Layer.provide(ServerConfig.layerTest({ apiToken: Option.some(Redacted.make("from-env")) })))))
  )
})
