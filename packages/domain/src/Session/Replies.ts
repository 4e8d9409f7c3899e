/** Replies a session decision queues for the outbox: cut to what the provider delivers. */
import type { Event } from "../Events.js"
import { type IdSupply, type Provider, type QuestionId, ReplyId, type UserId } from "../Ids.js"
import * as ReplyText from "../ReplyText.js"

/** Who a reply goes to: the sender, in their chat. */
export interface Recipient {
  readonly user: UserId
  readonly provider: Provider
  readonly chat: string
}

/** A reply to the conversation's sender, queued for the outbox. */
export const queueReply = (
  ids: IdSupply,
  to: Recipient,
  text: string,
  buttons: ReadonlyArray<{ readonly label: string; readonly data: string }> = [],
  questionId: QuestionId | null = null
): Event => ({
  _tag: "ReplyQueued",
  replyId: ReplyId.make(ids.next("reply")),
  user: to.user,
  provider: to.provider,
  chat: to.chat,
  // Longer than the provider takes, it would be refused and never reach the user.
  text: ReplyText.cut(text, ReplyText.replyLimit(to.provider, buttons.length > 0)),
  buttons,
  questionId
})
