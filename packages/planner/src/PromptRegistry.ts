/** Versioned system prompts: `prompts/<version>.md` files, each identified by its name and content hash. */
import { createHash } from "node:crypto"
import { readdir, readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { Config, type ConfigError, Context, Data, Effect, Layer } from "effect"

/** One system prompt as recorded with every plan: version, exact text and sha256 of the file bytes. */
export interface Prompt {
  readonly version: string
  readonly text: string
  /** sha256 hex of the file bytes, so a silent edit under an old version name is caught. */
  readonly hash: string
}

/** A prompt version that is not there, or a folder that cannot be read. */
export class PromptError extends Data.TaggedError("PromptError")<{
  readonly reason: "not-found" | "unreadable"
  readonly version: string
  readonly message: string
}> {}

/** Options of the registry. */
export interface PromptRegistryOptions {
  readonly directory: string
  readonly defaultVersion: string
}

/** The folder shipped with this package. */
export const packagedPromptDirectory: string = fileURLToPath(new URL("../prompts/", import.meta.url))

/** All prompts, loaded once at start-up: a missing default version fails the layer, not the first plan. */
export class PromptRegistry extends Context.Tag("@verbatim/planner/PromptRegistry")<
  PromptRegistry,
  {
    readonly load: (version: string) => Effect.Effect<Prompt, PromptError>
    /** The configured default version. */
    readonly current: Prompt
    /** Every version, sorted by name. */
    readonly versions: ReadonlyArray<string>
  }
>() {
  /** Reads every `*.md` file of `directory`. */
  static readonly make = Effect.fn("PromptRegistry.make")(function*(options: PromptRegistryOptions) {
    const names = yield* Effect.tryPromise({
      try: () => readdir(options.directory),
      catch: (error) => new PromptError({ reason: "unreadable", version: options.defaultVersion, message: String(error) })
    })
    const versions = names.filter((name) => name.endsWith(".md")).map((name) => name.slice(0, -3)).sort()
    const prompts = new Map<string, Prompt>()
    for (const version of versions) {
      const bytes = yield* Effect.tryPromise({
        try: () => readFile(`${options.directory}/${version}.md`),
        catch: (error) => new PromptError({ reason: "unreadable", version, message: String(error) })
      })
      prompts.set(version, {
        version,
        text: bytes.toString("utf8"),
        hash: createHash("sha256").update(bytes).digest("hex")
      })
    }
    const load = (version: string) => {
      const prompt = prompts.get(version)
      return prompt === undefined
        ? Effect.fail(
          new PromptError({
            reason: "not-found",
            version,
            message: `no prompt version "${version}" (have: ${versions.join(", ") || "none"})`
          })
        )
        : Effect.succeed(prompt)
    }
    const current = yield* load(options.defaultVersion)
    return PromptRegistry.of({ load, current, versions })
  })

  static readonly layer = (options: PromptRegistryOptions): Layer.Layer<PromptRegistry, PromptError> =>
    Layer.effect(PromptRegistry, PromptRegistry.make(options))

  /**
   * Prompt versions from `VERBATIM_PROMPT_DIR` (the packaged folder when unset), default version
   * from `VERBATIM_PROMPT_VERSION` (v2 when unset).
   */
  static readonly layerConfig: Layer.Layer<PromptRegistry, PromptError | ConfigError.ConfigError> = Layer.effect(
    PromptRegistry,
    Effect.flatMap(
      Config.all({
        directory: Config.string("VERBATIM_PROMPT_DIR").pipe(Config.withDefault(packagedPromptDirectory)),
        defaultVersion: Config.string("VERBATIM_PROMPT_VERSION").pipe(Config.withDefault("v2"))
      }),
      PromptRegistry.make
    )
  )
}
