/** The read API's bearer check: the token compared in constant time, every failure a 401. */
import { Authorization, Unauthorized } from "@verbatim/domain/Api"
import { Effect, Layer, Redacted } from "effect"
import { ApiToken } from "../ApiToken.js"
import { constantTimeEqual } from "../Providers/WebhookAuth.js"

/** The `Authorization` middleware of the `api` group. */
export const layer: Layer.Layer<Authorization, never, ApiToken> = Layer.effect(
  Authorization,
  Effect.map(ApiToken, (resolved) =>
    Authorization.of({
      bearer: (presented) =>
        constantTimeEqual(Redacted.value(presented), Redacted.value(resolved.token))
          ? Effect.void
          : Effect.fail(new Unauthorized({ message: "missing or wrong bearer token" }))
    }))
)
