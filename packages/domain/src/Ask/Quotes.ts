/**
 * The model's answer to an ask, checked: the model chooses which words answer, it never writes
 * them. A quote stands only when its reference is one this request sent, the message is the
 * asker's own, and its text is exactly in that message's current text. Anything else is dropped
 * and counted, never repaired into words the person did not write. What stands is each message's
 * quoted characters, overlapping quotes joined, in the order the messages were sent.
 */
import { Schema } from "effect"
import type { MessageId, UserId } from "../Ids.js"

/** The `record_answer` tool's input: a contract, fixed like the plan's. */
export const AnswerInput = Schema.Struct({
  quotes: Schema.Array(Schema.Struct({
    ref: Schema.String.annotations({ description: "The ref of the message the words are in, as given in the request" }),
    text: Schema.String.annotations({ description: "Words copied exactly from that message's text: never reworded, never joined across messages" })
  }))
})
export type AnswerInput = typeof AnswerInput.Type

/** A message the request sent, with its text as it is now (an edit may have landed during the call). */
export interface SentMessage {
  readonly ref: string
  readonly messageId: MessageId
  readonly user: UserId
  readonly text: string
}

/** Why a quote was dropped. */
export type DropReason = "unknown-ref" | "not-theirs" | "not-in-message" | "empty"

export interface KeptQuote {
  readonly messageId: MessageId
  readonly start: number
  readonly end: number
  /** The message's characters `start`…`end`: the words shown. */
  readonly text: string
}

export interface DroppedQuote {
  readonly ref: string
  readonly text: string
  readonly why: DropReason
}

export interface CheckedAnswer {
  readonly kept: ReadonlyArray<KeptQuote>
  readonly dropped: ReadonlyArray<DroppedQuote>
}

/** Whether offset `i` falls between the two halves of one character (a surrogate pair). */
const splitsPair = (text: string, i: number): boolean => {
  const before = text.charCodeAt(i - 1)
  const at = text.charCodeAt(i)
  return before >= 0xd800 && before <= 0xdbff && at >= 0xdc00 && at <= 0xdfff
}

/** The first place `quote` stands in `text` as whole characters, or -1. */
const wholeIndexOf = (text: string, quote: string): number => {
  for (let start = text.indexOf(quote); start >= 0; start = text.indexOf(quote, start + 1)) {
    if (!splitsPair(text, start) && !splitsPair(text, start + quote.length)) return start
  }
  return -1
}

/**
 * `answer`'s quotes reduced to exact words of `asker`'s own messages among `sent` (which are in
 * send order): the first place a quote stands in its message as whole characters, overlapping or touching ranges of
 * one message joined, each message's in order, the messages in the order they were sent.
 */
export const checkAnswer = (answer: AnswerInput, sent: ReadonlyArray<SentMessage>, asker: UserId): CheckedAnswer => {
  const byRef = new Map(sent.map((message, order) => [message.ref, { message, order }]))
  const ranges = new Map<number, Array<readonly [number, number]>>()
  const dropped: Array<DroppedQuote> = []
  for (const quote of answer.quotes) {
    const found = byRef.get(quote.ref)
    const drop = (why: DropReason) => dropped.push({ ref: quote.ref, text: quote.text, why })
    if (found === undefined) drop("unknown-ref")
    else if (found.message.user !== asker) drop("not-theirs")
    else if (quote.text.trim() === "") drop("empty")
    else {
      const start = wholeIndexOf(found.message.text, quote.text)
      if (start < 0) drop("not-in-message")
      else {
        const list = ranges.get(found.order) ?? []
        list.push([start, start + quote.text.length])
        ranges.set(found.order, list)
      }
    }
  }
  const kept: Array<KeptQuote> = []
  for (const order of [...ranges.keys()].sort((a, b) => a - b)) {
    const message = sent[order]!
    const joined: Array<[number, number]> = []
    for (const [start, end] of ranges.get(order)!.sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
      const last = joined.at(-1)
      if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end)
      else joined.push([start, end])
    }
    for (const [start, end] of joined) kept.push({ messageId: message.messageId, start, end, text: message.text.slice(start, end) })
  }
  return { kept, dropped }
}
