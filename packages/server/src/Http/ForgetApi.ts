/** The forgetting endpoints: the bearer token speaks for every user, so each forgetting is the operator's. */
import { HttpApiBuilder } from "@effect/platform"
import { Api, NotFound } from "@verbatim/domain/Api"
import type { ForgetTarget } from "@verbatim/domain/Forget/Events"
import { Effect } from "effect"
import { forget } from "../Forget/Forgetting.js"

export const layer = HttpApiBuilder.group(Api, "forget", (handlers) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<Effect.Effect.Context<ReturnType<typeof forget>>>()
    const run = (resource: "note" | "person" | "message", id: string, target: ForgetTarget) =>
      forget(target, null, null).pipe(
        Effect.map(({ forgetId, messages, people, sessions, user }) => ({ forgetId, user, messages, sessions, people })),
        Effect.catchTag("NothingToForget", () => Effect.fail(new NotFound({ resource, id }))),
        Effect.catchTags({ SqlError: Effect.die, StoreError: Effect.die }),
        Effect.provide(context)
      )
    return handlers
      .handle("forgetNote", ({ path }) => run("note", path.id, { _tag: "Note", noteId: path.id }))
      .handle("forgetPerson", ({ path }) => run("person", path.id, { _tag: "Person", personId: path.id }))
      .handle("forgetMessage", ({ path }) => run("message", path.id, { _tag: "Message", messageId: path.id }))
  }))
