/**
 * Replies outside any session, through the reply decider on the generic runner: a command's
 * answer (`/done` with nothing open, `/help`, `/web`), an import's summary, an answer's
 * confirmation are queued once, with the command's idempotency key in the same append, and the
 * outbox records each send and failure there. Reply streams are decided once or twice, so their
 * folds are not kept in the `FoldCache`.
 */
import type { Event } from "@verbatim/domain/Events"
import type { NewMessage } from "@verbatim/domain/Inbound/Inbound"
import { type ReplyId, userIdOf } from "@verbatim/domain/Ids"
import { ReplyCommand, replyDecider } from "@verbatim/domain/Reply/Decide"
import { replyStream } from "@verbatim/domain/Streams"
import type { IdempotencyKey } from "@verbatim/projections/EventStore"
import { Effect } from "effect"
import { keyOf } from "./Inbox/Conversations.js"
import * as Runner from "./Runner.js"

type Queued = Omit<Extract<Event, { readonly _tag: "ReplyQueued" }>, "_tag">

/** Run a reply command on the reply's stream: true when it appended, false when it was recorded before. */
const record = (replyId: ReplyId, command: ReplyCommand, keys: ReadonlyArray<IdempotencyKey> = []) =>
  Runner.run(replyDecider, replyStream(replyId), () => Effect.succeed(command), { keys, keep: false }).pipe(
    Effect.map((done) => done._tag === "Appended"),
    Effect.catchTag("Rejected", () => Effect.succeed(false))
  )

/** Queue a reply; false when it (or the command under `keys`) was queued before. */
export const queue = (reply: Queued, keys: ReadonlyArray<IdempotencyKey> = []) =>
  record(reply.replyId, ReplyCommand.Queue({ reply }), keys)

/** Queue `text` as the reply to `item` under `replyId`; false when this command's reply was queued before. */
export const queueCommandReply = (item: NewMessage, replyId: ReplyId, text: string) =>
  queue({
    replyId,
    user: userIdOf(item.provider, item.senderId),
    provider: item.provider,
    chat: item.chatId,
    text,
    buttons: [],
    questionId: null
  }, [keyOf(item)])

/** Whether the reply was recorded as sent (read afresh: another instance may have sent it). */
export const isSent = (replyId: ReplyId) =>
  Effect.map(Runner.load(replyDecider, replyStream(replyId), false), (folded) => folded.state.sent)

/** Record a send; false when it was recorded before. */
export const recordSent = (sent: ReplyCommand & { readonly _tag: "RecordSent" }) => record(sent.sent.replyId, sent)

/** Record a failed send; false when the reply was recorded as sent before. */
export const recordFailed = (failed: ReplyCommand & { readonly _tag: "RecordFailed" }) => record(failed.failed.replyId, failed)
