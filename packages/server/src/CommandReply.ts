/**
 * The one way a command's reply is queued outside any session (`/done` with nothing open, `/help`,
 * `/web`): in its own reply stream, at version 0, with the command's idempotency key in the same
 * append, so a redelivered command queues nothing more. Not content: no session sees it.
 */
import type { NewMessage } from "@verbatim/domain/Inbound/Inbound"
import { type ReplyId, userIdOf } from "@verbatim/domain/Ids"
import { replyStream } from "@verbatim/domain/Streams"
import { AppendConflict, EventStore } from "@verbatim/projections/EventStore"
import { Effect } from "effect"
import { keyOf } from "./Conversations.js"

/** Queue `text` as the reply to `item` under `replyId`; false when this command's reply was queued before. */
export const queueCommandReply = (item: NewMessage, replyId: ReplyId, text: string) =>
  Effect.flatMap(EventStore, (store) =>
    store.append(replyStream(replyId), 0, [{
      _tag: "ReplyQueued",
      replyId,
      user: userIdOf(item.provider, item.senderId),
      provider: item.provider,
      chat: item.chatId,
      text,
      buttons: [],
      questionId: null
    }], { idempotencyKeys: [keyOf(item)] })).pipe(
      Effect.map((recorded) => recorded._tag === "Appended"),
      Effect.catchIf((e): e is AppendConflict => e instanceof AppendConflict, () => Effect.succeed(false))
    )
