/** The testkit's fake model and provider servers, run on loopback for the harness's child servers. */
import { FakeAnthropic, FakeTelegram } from "@verbatim/testkit"
import { Effect, Exit, Scope } from "effect"

export interface Fakes {
  readonly anthropic: FakeAnthropic.FakeAnthropic["Type"]
  readonly telegram: FakeTelegram.FakeTelegram["Type"]
  readonly close: () => Promise<void>
  /** Environment pointing a server at these fakes. */
  readonly env: Readonly<Record<string, string>>
}

export const startFakes = async (): Promise<Fakes> => {
  const scope = await Effect.runPromise(Scope.make())
  const anthropic = await Effect.runPromise(Scope.extend(FakeAnthropic.FakeAnthropic.make, scope))
  const telegram = await Effect.runPromise(Scope.extend(FakeTelegram.FakeTelegram.make(), scope))
  return {
    anthropic,
    telegram,
    close: () => Effect.runPromise(Scope.close(scope, Exit.void)),
    env: {
      ANTHROPIC_API_KEY: "sk-reliability",
      ANTHROPIC_BASE_URL: anthropic.baseUrl,
      VERBATIM_MODEL_MAX_ATTEMPTS: "2",
      VERBATIM_MODEL_RETRY_BASE: "10 millis",
      VERBATIM_MODEL_RETRY_MAX: "20 millis",
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_BASE: telegram.baseUrl
    }
  }
}

export const run = <A>(effect: Effect.Effect<A>) => Effect.runPromise(effect)
