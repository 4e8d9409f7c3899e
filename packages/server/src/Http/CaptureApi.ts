/** `POST /api/messages`: messages captured as the `web` provider's, for the operator or an allowed user. */
import { HttpApiBuilder } from "@effect/platform"
import { Api, BadRequest, PayloadTooLarge } from "@verbatim/domain/Api"
import { maxMessageBytes, tooLong } from "@verbatim/domain/MessageLimit"
import { operatorUser } from "@verbatim/domain/Ids"
import { Effect } from "effect"
import { compose } from "../Inbox/Compose.js"
import { ServerConfig } from "../ServerConfig.js"
import type * as Dispatch from "../Inbox/Dispatch.js"

export const layer = HttpApiBuilder.group(Api, "capture", (handlers) =>
  Effect.gen(function*() {
    const settings = yield* ServerConfig
    const context = yield* Effect.context<Effect.Effect.Context<ReturnType<typeof Dispatch.handle>>>()
    return handlers.handle("messages", ({ payload }) =>
      Effect.gen(function*() {
        const user = payload.user ?? operatorUser
        if (user !== operatorUser && !settings.allowedSenders.has(user)) {
          return yield* new BadRequest({ message: `user must be ${operatorUser} or a user on the allow-list (VERBATIM_ALLOWED_SENDERS)` })
        }
        const overLong = payload.messages.flatMap((m, i) => {
          const why = tooLong(m.text)
          return why === null ? [] : [`messages[${i}].text ${why}`]
        })
        if (overLong.length > 0) return yield* new PayloadTooLarge({ limitBytes: maxMessageBytes, message: overLong[0]! })
        const messages = yield* compose(user, payload.messages, payload.close).pipe(Effect.orDie, Effect.provide(context))
        return { messages }
      }))
  }))
