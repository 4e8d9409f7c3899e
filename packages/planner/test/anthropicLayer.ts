/** The real Anthropic layer wired to a fresh FakeAnthropic through configuration, as in production. */
import { FakeAnthropic } from "@verbatim/testkit/FakeAnthropic"
import { ConfigProvider, Effect, Layer } from "effect"
import * as AnthropicLanguageModel from "../src/AnthropicLanguageModel.js"

export const anthropicOnFake = Layer.unwrapEffect(
  Effect.map(FakeAnthropic, (fake) =>
    AnthropicLanguageModel.layerConfig.pipe(
      Layer.provide(
        Layer.setConfigProvider(
          ConfigProvider.fromMap(
            new Map([
              ["ANTHROPIC_API_KEY", "sk-ant-test"],
              ["ANTHROPIC_BASE_URL", fake.baseUrl],
              ["VERBATIM_MODEL", "claude-test"]
            ])
          )
        )
      )
    ))
).pipe(Layer.provideMerge(FakeAnthropic.layer))
