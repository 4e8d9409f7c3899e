/**
 * The ask's endpoints. `POST /api/ask` records the question, then waits for the worker's answer
 * (woken when it is recorded) for up to a minute; the bearer token speaks for the operator and
 * every allowed user, so `user` must be one of them.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Api, BadRequest, NotFound } from "@verbatim/domain/Api"
import { maxQuestionLength, questionProblem } from "@verbatim/domain/Ask/Question"
import { AskId, operatorUser } from "@verbatim/domain/Ids"
import { AskBook, type AskRow } from "@verbatim/projections/AskBook"
import type { EventStore } from "@verbatim/projections/EventStore"
import type { FoldCache } from "@verbatim/projections/FoldCache"
import type { Wakeups } from "@verbatim/projections/Wakeups"
import { Effect, Option } from "effect"
import { awaitAnswer, pose } from "../Ask/Pose.js"
import { askedView, askedViews } from "../Ask/Reply.js"
import { IdGenerator } from "../IdGenerator.js"
import { operator, type OperatorReads, require } from "../OperatorReads.js"
import { ServerConfig } from "../ServerConfig.js"
import type { TimeZones } from "../TimeZones.js"
import type { WebLinks } from "../WebLinks.js"

/** How long `POST /api/ask` waits for the answer before answering `posed`: within the server's request timeout (30 s unless set). */
const answerWait = "25 seconds"

export const layer = HttpApiBuilder.group(Api, "ask", (handlers) =>
  Effect.gen(function*() {
    const settings = yield* ServerConfig
    const book = yield* AskBook
    const ids = yield* IdGenerator
    const context = yield* Effect.context<EventStore | FoldCache | Wakeups | AskBook | TimeZones | WebLinks | OperatorReads>()
    const view = (row: AskRow) => askedView(row).pipe(Effect.orDie, Effect.provide(context))
    const found = (id: AskId) =>
      Effect.flatMap(Effect.orDie(book.get(id)), Option.match({ onNone: () => Effect.fail(new NotFound({ resource: "ask", id })), onSome: Effect.succeed }))
    return handlers
      .handle("ask", ({ payload }) =>
        Effect.gen(function*() {
          const user = payload.user ?? operatorUser
          if (user !== operatorUser && !settings.allowedSenders.has(user)) {
            return yield* new BadRequest({ message: `user must be ${operatorUser} or a user on the allow-list (VERBATIM_ALLOWED_SENDERS)` })
          }
          const problem = questionProblem(payload.question)
          if (problem !== null) {
            return yield* new BadRequest({
              message: problem === "empty" ? "question: ask something" : `question: ${payload.question.length} characters, at most ${maxQuestionLength}`
            })
          }
          const askId = AskId.make(yield* ids.next("ask"))
          // The answer is the user's own words: asking for another user reads them.
          yield* require(operator, { user, kind: "ask", ids: [askId] }).pipe(Effect.provide(context))
          yield* pose({ askId, user, question: payload.question, via: "api", provider: null, chat: null }).pipe(Effect.orDie, Effect.provide(context))
          const row = yield* awaitAnswer(askId, answerWait).pipe(Effect.orDie, Effect.provide(context))
          return yield* Option.match(row, { onNone: () => Effect.dieMessage("a recorded question is not in the read model"), onSome: view })
        }))
      .handle("asks", ({ urlParams }) =>
        Effect.gen(function*() {
          const rows = yield* Effect.orDie(book.of(urlParams.user, 100))
          yield* require(operator, { user: urlParams.user, kind: "asks", ids: rows.map((r) => r.askId) }).pipe(Effect.provide(context))
          return { items: yield* askedViews(rows).pipe(Effect.orDie, Effect.provide(context)) }
        }))
      .handle("asked", ({ path }) =>
        Effect.gen(function*() {
          const row = yield* found(path.id)
          yield* require(operator, { user: row.user, kind: "ask", ids: [path.id] }).pipe(Effect.provide(context))
          return yield* view(row)
        }))
  }))
