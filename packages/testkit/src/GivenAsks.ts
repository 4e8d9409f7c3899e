/** Ask events in the shape the ask decider records them, for projection and query tests. */
import { askReplyId } from "@verbatim/domain/Ask/Events"
import type { Event } from "@verbatim/domain/Events"
import { AskId, MessageId } from "@verbatim/domain/Ids"
import { askStream } from "@verbatim/domain/Streams"
import { at, user } from "./Given.js"

/** The stream of question `askId`. */
export const stream = (askId: string): string => askStream(AskId.make(askId))

/** Question `askId` asked at `seconds`, in the fixture user's Telegram chat. */
export const askPosed = (askId: string, question: string, seconds: number): Event => ({
  _tag: "AskPosed",
  askId: AskId.make(askId),
  user,
  question,
  via: "chat",
  provider: "telegram",
  chat: "100000001",
  postedAt: at(seconds)
})

/** Its answer: the words `start`…`end` of message `messageId`, and one quote dropped. */
export const askAnswered = (askId: string, messageId: string, text: string, seconds: number): Event => ({
  _tag: "AskAnswered",
  askId: AskId.make(askId),
  user,
  sent: [MessageId.make(messageId)],
  left: [],
  kept: [{ messageId: MessageId.make(messageId), start: 0, end: text.length, text }],
  dropped: [{ ref: "m9", text: "made up", why: "unknown-ref" }],
  model: "claude-test",
  promptVersion: "v1",
  promptHash: "hash",
  usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 },
  durationMs: 120,
  answeredAt: at(seconds)
})

export const askFailed = (askId: string, seconds: number): Event => ({
  _tag: "AskFailed",
  askId: AskId.make(askId),
  user,
  reason: "server",
  message: "500 api_error",
  failedAt: at(seconds)
})

/** The reply that answers it, queued in the fixture user's chat. */
export const askReplied = (askId: string, text: string): Event => ({
  _tag: "ReplyQueued",
  replyId: askReplyId(AskId.make(askId)),
  user,
  provider: "telegram",
  chat: "100000001",
  text,
  buttons: [],
  questionId: null
})

/** The asker confirming that characters `start`…`end` of message `messageId` answer question `askId`. */
export const askQuoteConfirmed = (askId: string, messageId: string, start: number, end: number, seconds: number): Event => ({
  _tag: "AskQuoteConfirmed",
  askId: AskId.make(askId),
  user,
  messageId: MessageId.make(messageId),
  start,
  end,
  confirmedAt: at(seconds)
})
