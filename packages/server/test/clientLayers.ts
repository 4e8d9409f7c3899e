/** Clients wired to the fake provider servers, and the expected shape of their failures. */
import { FetchHttpClient } from "@effect/platform"
import type { FakeTelegram } from "@verbatim/testkit/FakeTelegram"
import type { FakeWhatsApp } from "@verbatim/testkit/FakeWhatsApp"
import { Either, Layer, Option, Redacted } from "effect"
import { ProviderError, TelegramClient, WhatsAppClient } from "../src/Providers/ProviderClients.js"
import { ServerConfig, type ServerSettings } from "../src/ServerConfig.js"

export const withClients = (settings: Partial<ServerSettings>) =>
  Layer.mergeAll(TelegramClient.layer, WhatsAppClient.layer).pipe(
    Layer.provide(ServerConfig.layerTest(settings)),
    Layer.provide(FetchHttpClient.layer)
  )

export const telegramSettings = (fake: FakeTelegram["Type"]) => ({
  telegramApiBase: fake.baseUrl,
  telegramBotToken: Option.some(Redacted.make(fake.token))
})

export const whatsAppSettings = (fake: FakeWhatsApp["Type"]) => ({
  whatsAppApiBase: fake.baseUrl,
  whatsAppAccessToken: Option.some(Redacted.make(fake.accessToken)),
  whatsAppPhoneNumberId: Option.some(fake.phoneNumberId)
})

/** Fields in the order the client sets them: Effect's structural equality hashes them in order. */
export const failure = ({ retryAfterSeconds = null, ...fields }: Omit<ConstructorParameters<typeof ProviderError>[0], "retryAfterSeconds"> & {
  readonly retryAfterSeconds?: number | null
}) =>
  Either.left(
    new ProviderError({
      provider: fields.provider,
      reason: fields.reason,
      retryable: fields.retryable,
      status: fields.status,
      retryAfterSeconds,
      detail: fields.detail
    })
  )
