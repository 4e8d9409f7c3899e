/** The asks' read side: questions still to answer, a user's questions, one question, and the messages a question finds. */
import { SqlClient } from "@effect/sql/SqlClient"
import type { AskCandidate } from "@verbatim/domain/Ask/Candidates"
import type { AskId, MessageId, UserId } from "@verbatim/domain/Ids"
import { Context, Effect, Layer } from "effect"
import type { Option } from "effect"
import type { StoreError } from "./EventStore.js"
import { runOn } from "./internal/Rows.js"
import * as Q from "./Queries/Asks.js"
import type { AskRow, QuotedMessage } from "./Queries/Asks.js"

export type { AskRow, QuotedMessage } from "./Queries/Asks.js"

export class AskBook extends Context.Tag("@verbatim/projections/AskBook")<AskBook, {
  /** Questions still to answer, or answered in a chat whose reply is not yet queued, oldest first, at most `limit`. */
  readonly owed: (limit: number) => Effect.Effect<ReadonlyArray<AskRow>, StoreError>
  readonly get: (askId: AskId) => Effect.Effect<Option.Option<AskRow>, StoreError>
  /** A user's questions, newest first. */
  readonly of: (user: UserId, limit: number) => Effect.Effect<ReadonlyArray<AskRow>, StoreError>
  /** The messages of `user` a question finds, by the people it names and the words it holds (`terms`), and the newest. */
  readonly candidates: (user: UserId, question: string, terms: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<AskCandidate>, StoreError>
  /** Where quoted messages are: when received, their note, the person it is filed under. */
  readonly quoted: (ids: ReadonlyArray<MessageId>) => Effect.Effect<ReadonlyArray<QuotedMessage>, StoreError>
  /** The messages' senders and current texts. */
  readonly texts: (ids: ReadonlyArray<MessageId>) => Effect.Effect<ReadonlyArray<{ readonly messageId: MessageId; readonly user: UserId; readonly text: string }>, StoreError>
}>() {}

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient
  const run = runOn(sql)
  return AskBook.of({
    owed: (limit) => run(Q.owedAsks(limit)),
    get: (askId) => run(Q.askRow(askId)),
    of: (user, limit) => run(Q.asksOf(user, limit)),
    candidates: (user, question, terms) => run(Q.askCandidates(user, question, terms)),
    quoted: (ids) => run(Q.quotedMessages(ids)),
    texts: (ids) => run(Q.currentTexts(ids))
  })
})

/** The asks' read side on the store's database. */
export const layer: Layer.Layer<AskBook, never, SqlClient> = Layer.effect(AskBook, make)
