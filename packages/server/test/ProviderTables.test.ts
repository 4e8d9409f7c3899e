/**
 * Every provider's parts are looked up in tables typed over `ChatProvider`, so a provider added to
 * the type and missing from any table does not compile. Here a fourth provider ("signal") is
 * added to the key type: each `@ts-expect-error` below is the build failing for that table (if a
 * table ever stopped being checked, the directive itself would fail the build). At run time the
 * tables cover exactly the chat providers the `Provider` schema names.
 */
import { describe, expect, it } from "@effect/vitest"
import { type ChatProvider, Provider } from "@verbatim/domain/Ids"
import { type ChatProviderRules, chatProviderRules, chatProviders } from "@verbatim/domain/Inbound/Providers"
import { Effect } from "effect"
import { type Senders, sendersOf } from "../src/Providers/Senders.js"
import { TelegramClient, WhatsAppClient } from "../src/Providers/ProviderClients.js"
import { ServerConfig } from "../src/ServerConfig.js"
import { type WebhookCheck, webhookChecks } from "../src/Providers/WebhookAuth.js"
import { layer } from "./harness.js"

type WithSignal = ChatProvider | "signal"
type Table<T> = { readonly [P in WithSignal]: T }

describe("the provider tables", () => {
  it("hold every chat provider the Provider schema names, and nothing else", () => {
    expect([...chatProviders].sort()).toEqual(Provider.literals.filter((p) => p !== "web").sort())
  })

  it.effect("a fourth provider does not compile until the domain's rules, the webhook checks and the senders all have it", () =>
    Effect.gen(function*() {
      const settings = yield* ServerConfig
      const senders = sendersOf(yield* TelegramClient, yield* WhatsAppClient)
      // @ts-expect-error: the domain's rules have no "signal" (decode, reply limits, command form)
      const rules: Table<ChatProviderRules> = chatProviderRules
      // @ts-expect-error: the webhook checks have no "signal", so its webhooks could not be authenticated
      const checks: Table<WebhookCheck> = webhookChecks(settings)
      // @ts-expect-error: the senders have no "signal", so its replies could not go out
      const sending: Table<Senders[ChatProvider]> = senders
      expect([rules, checks, sending].map((table) => Object.keys(table).sort())).toEqual([
        ["telegram", "whatsapp"],
        ["telegram", "whatsapp"],
        ["telegram", "whatsapp"]
      ])
    }).pipe(Effect.provide(layer([]))))
})
