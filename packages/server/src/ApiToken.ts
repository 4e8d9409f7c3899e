/**
 * The read API's bearer token: `VERBATIM_API_TOKEN` when set; otherwise one generated on first
 * start and kept in the data folder (`api-token`, mode 0600) so it survives restarts.
 */
import { Config, Context, Data, Effect, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ServerConfig } from "./ServerConfig.js"

/** The token file could not be read or written. */
export class ApiTokenError extends Data.TaggedError("ApiTokenError")<{ readonly path: string; readonly cause: unknown }> {
  override get message(): string {
    return `cannot read or write the API token file ${this.path}: ${String(this.cause)}`
  }
}

/** Where the token came from; `generated` is true only on the start that created the file. */
export interface ResolvedToken {
  readonly token: Redacted.Redacted
  readonly source: "environment" | "file"
  readonly path: string | null
  readonly generated: boolean
}

/** Read the token file, or create it with a fresh random token. */
export const fromFile = (dataDir: string): Effect.Effect<ResolvedToken, ApiTokenError> => {
  const path = join(dataDir, "api-token")
  return Effect.try({
    try: (): ResolvedToken => {
      if (existsSync(path)) {
        const stored = readFileSync(path, "utf8").trim()
        if (stored !== "") return { token: Redacted.make(stored), source: "file", path, generated: false }
      }
      mkdirSync(dataDir, { recursive: true })
      const token = randomBytes(32).toString("base64url")
      writeFileSync(path, `${token}\n`, { mode: 0o600 })
      chmodSync(path, 0o600)
      return { token: Redacted.make(token), source: "file", path, generated: true }
    },
    catch: (cause) => new ApiTokenError({ path, cause })
  })
}

/** The data folder, as the store reads it. */
const dataDir = Config.string("VERBATIM_DATA_DIR").pipe(Config.withDefault("./data"))

export class ApiToken extends Context.Tag("@verbatim/server/ApiToken")<ApiToken, ResolvedToken>() {
  /** `VERBATIM_API_TOKEN`, else the token file in `VERBATIM_DATA_DIR`. */
  static readonly layer = Layer.effect(
    ApiToken,
    Effect.gen(function*() {
      const settings = yield* ServerConfig
      if (Option.isSome(settings.apiToken)) {
        return { token: settings.apiToken.value, source: "environment" as const, path: null, generated: false }
      }
      return yield* fromFile(yield* dataDir)
    })
  )

  /** A fixed token. */
  static readonly layerTest = (token: string) =>
    Layer.succeed(ApiToken, { token: Redacted.make(token), source: "environment", path: null, generated: false })
}
