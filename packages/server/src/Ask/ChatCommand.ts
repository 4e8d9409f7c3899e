/**
 * `/ask <question>` in a chat: a command, never content, and it neither closes nor joins the
 * sender's open session. The question is recorded under the message's key (a redelivery asks
 * nothing again) and answered by the worker; an empty or overlong one is told so at once.
 */
import { questionProblem } from "@verbatim/domain/Ask/Question"
import { askText } from "@verbatim/domain/Ask/Text"
import type { NewMessage } from "@verbatim/domain/Inbound/Inbound"
import { AskId, ReplyId, userIdOf } from "@verbatim/domain/Ids"
import { Effect } from "effect"
import { queueCommandReply } from "../Replies.js"
import { pose } from "./Pose.js"

/** The question a chat message asks: one per message, so a redelivered `/ask` is the same question. */
export const chatAskId = (item: NewMessage): AskId => AskId.make(`${item.provider}-${item.providerMessageId}`)

/** `/ask QUESTION`: true when it was recorded (or refused with a reply) now. */
export const ask = Effect.fn("Ask.chat")(function*(item: NewMessage, question: string | null) {
  const words = question ?? ""
  const problem = questionProblem(words)
  if (problem !== null) {
    const text = problem === "empty" ? askText.empty : askText.tooLong(words.length)
    return yield* queueCommandReply(item, ReplyId.make(`ask:${item.provider}:${item.providerMessageId}`), text)
  }
  return yield* pose({
    askId: chatAskId(item),
    user: userIdOf(item.provider, item.senderId),
    question: words,
    via: "chat",
    provider: item.provider,
    chat: item.chatId
  }, [{ provider: item.provider, providerMessageId: item.providerMessageId }])
})
