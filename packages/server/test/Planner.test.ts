/** The one planner composition: which model configuration chooses, and what happens without one. */
import { describe, expect, it } from "@effect/vitest"
import type { SessionId } from "@verbatim/domain/Ids"
import { tempDir } from "@verbatim/testkit/TempDir"
import { Cause, ConfigProvider, Duration, Effect, Exit, Layer, Option, Redacted } from "effect"
import { PlanJobLayer } from "../src/Cli/Layers.js"
import { PlanJob } from "../src/Planning/PlanJob.js"
import * as Planner from "../src/Planning/Planner.js"

const configured = (entries: ReadonlyArray<readonly [string, string]>) => ConfigProvider.fromMap(new Map(entries))

/** The source with the key revealed, so whole structures compare. */
const chosen = (entries: ReadonlyArray<readonly [string, string]>, model: Option.Option<string> = Option.none()) =>
  Planner.modelSource(model).pipe(
    Effect.map((source) =>
      source._tag === "Anthropic"
        ? { ...source, options: { ...source.options, apiKey: Redacted.value(source.options.apiKey) } }
        : source
    ),
    Effect.withConfigProvider(configured(entries))
  )

describe("Planner", () => {
  it.effect("recorded answers win over a key, a key alone is Anthropic (a --model overrides VERBATIM_MODEL), nothing is none", () =>
    Effect.gen(function*() {
      expect(yield* chosen([["VERBATIM_CASSETTE_DIR", "/cassettes"], ["ANTHROPIC_API_KEY", "sk-test"]])).toEqual({
        _tag: "Recorded",
        directory: "/cassettes"
      })
      expect(yield* chosen([["ANTHROPIC_API_KEY", "sk-test"], ["VERBATIM_MODEL", "claude-a"]])).toEqual({
        _tag: "Anthropic",
        options: { apiKey: "sk-test", model: "claude-a", baseUrl: Option.none(), timeout: Duration.minutes(2) }
      })
      expect(yield* chosen([["ANTHROPIC_API_KEY", "sk-test"], ["VERBATIM_MODEL", "claude-a"]], Option.some("claude-b"))).toEqual({
        _tag: "Anthropic",
        options: { apiKey: "sk-test", model: "claude-b", baseUrl: Option.none(), timeout: Duration.minutes(2) }
      })
      expect(yield* chosen([])).toEqual({ _tag: "None" })
    }))

  it.effect("without a model the planner fails, saying what to set", () =>
    Effect.gen(function*() {
      const exit = yield* Layer.build(Planner.layerConfig()).pipe(
        Effect.scoped,
        Effect.withConfigProvider(configured([])),
        Effect.exit
      )
      expect(Exit.isFailure(exit) ? Option.map(Cause.failureOption(exit.cause), (e) => ({ _tag: e._tag, message: e.message })) : Option.none()).toEqual(
        Option.some({
          _tag: "NoModelError",
          message: "no model configured: set ANTHROPIC_API_KEY (or VERBATIM_CASSETTE_DIR for recorded answers)"
        })
      )
    }))

  it.live("without a model the plan job leaves sessions unplanned", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-planner-")
      const outcome = yield* Effect.flatMap(PlanJob, (job) => job.run("telegram:1:1:1" as SessionId)).pipe(
        Effect.provide(PlanJobLayer),
        Effect.withConfigProvider(configured([["VERBATIM_DATA_DIR", dir]]))
      )
      expect(outcome).toBe("no-model")
    }).pipe(Effect.scoped))
})
