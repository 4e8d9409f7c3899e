/** The real Anthropic layer wired to a fresh FakeAnthropic through configuration, as in production. */
import { FakeAnthropic } from "@verbatim/testkit/FakeAnthropic"
import { ConfigProvider, Effect, Layer } from "effect"
import * as AnthropicLanguageModel from "../src/AnthropicLanguageModel.js"

/** The same, with `VERBATIM_MODEL` as given (unset: the default model). */
export const anthropicOnFakeWith = (model: string | undefined) =>
  Layer.unwrapEffect(
    Effect.map(FakeAnthropic, (fake) =>
      AnthropicLanguageModel.layerConfig.pipe(
        Layer.provide(
          Layer.setConfigProvider(
            ConfigProvider.fromMap(
              new Map([
                ["ANTHROPIC_API_KEY", "sk-ant-test"],
                ["ANTHROPIC_BASE_URL", fake.baseUrl],
                ...(model === undefined ? [] : [["VERBATIM_MODEL", model] as const])
              ])
            )
          )
        )
      ))
  ).pipe(Layer.provideMerge(FakeAnthropic.layer))

export const anthropicOnFake = anthropicOnFakeWith("claude-test")
