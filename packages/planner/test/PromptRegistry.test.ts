import { mkdtemp, readFile, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Cause, ConfigProvider, Effect, Exit, Layer, Option } from "effect"
import { packagedPromptDirectory, PromptError, PromptRegistry } from "../src/PromptRegistry.js"
import { errorFields } from "./fixtures.js"

const withConfig = (entries: ReadonlyArray<readonly [string, string]>) =>
  Layer.setConfigProvider(ConfigProvider.fromMap(new Map(entries)))

describe("PromptRegistry", () => {
  it.effect("loads the packaged v2 by default and keeps v1, with the hashes of their bytes pinned so an edit is a reviewed diff", () =>
    Effect.gen(function*() {
      const registry = yield* PromptRegistry
      const text = (version: string) => Effect.promise(() => readFile(join(packagedPromptDirectory, `${version}.md`), "utf8"))
      expect(registry.versions).toEqual(["v1", "v2"])
      expect(registry.current).toEqual({
        version: "v2",
        text: yield* text("v2"),
        hash: "d46ff587b72a2f38141e82ea34c618bb7a6c84f1180d2d92b17fbe6d617b13f4"
      })
      expect(yield* registry.load("v2")).toEqual(registry.current)
      expect(yield* registry.load("v1")).toEqual({
        version: "v1",
        text: yield* text("v1"),
        hash: "e42a90e2d95cd21d4aba6e4c815073310cd59d243cb582207879d7561707459d"
      })
    }).pipe(Effect.provide(PromptRegistry.layerConfig.pipe(Layer.provide(withConfig([]))))))

  it.effect("names the versions it has when asked for one it does not", () =>
    Effect.gen(function*() {
      const registry = yield* PromptRegistry
      const error = yield* Effect.flip(registry.load("v0"))
      expect(errorFields(error)).toEqual(
        errorFields(new PromptError({ reason: "not-found", version: "v0", message: "no prompt version \"v0\" (have: v1, v2)" }))
      )
    }).pipe(Effect.provide(PromptRegistry.layerConfig.pipe(Layer.provide(withConfig([]))))))

  it.effect("fails at start-up when the configured default version does not exist", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(
        Layer.build(PromptRegistry.layerConfig.pipe(Layer.provide(withConfig([["VERBATIM_PROMPT_VERSION", "v9"]])))).pipe(
          Effect.scoped
        )
      )
      expect(Exit.isFailure(exit) ? Cause.failureOption(exit.cause).pipe(Option.map(errorFields)) : Option.none()).toEqual(
        Option.some(errorFields(new PromptError({ reason: "not-found", version: "v9", message: "no prompt version \"v9\" (have: v1, v2)" })))
      )
    }))

  it.effect("lists every version of a folder and serves the configured default", () =>
    Effect.gen(function*() {
      const directory = yield* Effect.promise(() => mkdtemp(join(tmpdir(), "prompts-")))
      yield* Effect.promise(() => writeFile(join(directory, "v1.md"), "first\n"))
      yield* Effect.promise(() => writeFile(join(directory, "v2.md"), "second\n"))
      yield* Effect.promise(() => writeFile(join(directory, "notes.txt"), "not a prompt"))
      const registry = yield* PromptRegistry.make({ directory, defaultVersion: "v2" })
      expect(registry.versions).toEqual(["v1", "v2"])
      expect(registry.current).toEqual({
        version: "v2",
        text: "second\n",
        // sha256 of the bytes "second\n"
        hash: "480c2336b410f1ad5f8bf1b28944490255804b65350c527787e74ebdd511e3a4"
      })
    }))
  it.effect("reads the folder VERBATIM_PROMPT_DIR names instead of the packaged one", () =>
    Effect.gen(function*() {
      const directory = yield* Effect.promise(() => mkdtemp(join(tmpdir(), "prompts-")))
      yield* Effect.promise(() => writeFile(join(directory, "v7.md"), "second\n"))
      const registry = yield* Effect.provide(
        PromptRegistry,
        PromptRegistry.layerConfig.pipe(
          Layer.provide(withConfig([["VERBATIM_PROMPT_DIR", directory], ["VERBATIM_PROMPT_VERSION", "v7"]]))
        )
      )
      expect(registry.versions).toEqual(["v7"])
      expect(registry.current).toEqual({
        version: "v7",
        text: "second\n",
        // sha256 of the bytes "second\n"
        hash: "480c2336b410f1ad5f8bf1b28944490255804b65350c527787e74ebdd511e3a4"
      })
    }))
})
