/** One ask's stream: posed once, then one outcome, answered or failed, and nothing after it. */
import { at, user } from "@verbatim/testkit/Given"
import { DeciderSpec } from "@verbatim/testkit/DeciderSpec"
import { describe, expect, it } from "@effect/vitest"
import { AskCommand, askDecider, type AskState } from "../../src/Ask/Decide.js"
import type { AskAnswered, AskEvent, AskFailed, AskPosed } from "../../src/Ask/Events.js"
import { fold } from "../../src/Decider.js"
import { AskId, MessageId, UserId } from "../../src/Ids.js"
import { rejected } from "../../src/Session/Commands.js"

const asks = DeciderSpec.for(askDecider)
const askId = AskId.make("telegram-100000001:4")

const posed: Omit<typeof AskPosed.Type, "_tag"> = {
  askId,
  user,
  question: "what do I know about Ana?",
  via: "chat",
  provider: "telegram",
  chat: "100000001",
  postedAt: at(0)
}
const answered: Omit<typeof AskAnswered.Type, "_tag"> = {
  askId,
  user,
  sent: [MessageId.make("telegram:100000001:1"), MessageId.make("telegram:100000001:2")],
  left: [MessageId.make("telegram:100000001:0")],
  kept: [{ messageId: MessageId.make("telegram:100000001:1"), start: 0, end: 23, text: "Ana is moving to Lisbon" }],
  dropped: [{ ref: "m2", text: "Ana owes me 500 euros.", why: "not-in-message" }],
  model: "claude-test",
  promptVersion: "v1",
  promptHash: "0123abcd",
  usage: { inputTokens: 812, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0 },
  durationMs: 1_250,
  answeredAt: at(5)
}
const failed: Omit<typeof AskFailed.Type, "_tag"> = { askId, user, reason: "timeout", message: "the model did not answer in time", failedAt: at(5) }

const wasPosed: AskEvent = { _tag: "AskPosed", ...posed }
const wasAnswered: AskEvent = { _tag: "AskAnswered", ...answered }
const wasFailed: AskEvent = { _tag: "AskFailed", ...failed }

const alreadyRecorded = rejected("already-recorded", "the question is asked already")
const alreadyAnswered = rejected("already-answered", "the question has its answer")
const notFound = rejected("not-found", "no such question")

describe("the ask decider", () => {
  it("poses a question once: a redelivered question, even at another time, is refused as recorded", () => {
    asks.given([]).when(AskCommand.Pose({ posed })).then([wasPosed])
    asks.given([wasPosed]).when(AskCommand.Pose({ posed })).thenRejects(alreadyRecorded)
    asks.given([wasPosed]).when(AskCommand.Pose({ posed: { ...posed, postedAt: at(60) } })).thenRejects(alreadyRecorded)
    asks.given([wasPosed, wasAnswered]).when(AskCommand.Pose({ posed })).thenRejects(alreadyRecorded)
    asks.given([wasPosed, wasFailed]).when(AskCommand.Pose({ posed })).thenRejects(alreadyRecorded)
  })

  it("answers a posed question once, with every quote kept and dropped and what the call cost", () => {
    asks.given([wasPosed]).when(AskCommand.Answer({ answered })).then([wasAnswered])
    asks.given([wasPosed, wasAnswered]).when(AskCommand.Answer({ answered })).thenRejects(alreadyAnswered)
    asks.given([wasPosed, wasAnswered]).when(AskCommand.Answer({ answered: { ...answered, kept: [], answeredAt: at(9) } })).thenRejects(alreadyAnswered)
  })

  it("fails a posed question once, with its reason", () => {
    asks.given([wasPosed]).when(AskCommand.Fail({ failed })).then([wasFailed])
    asks.given([wasPosed, wasFailed]).when(AskCommand.Fail({ failed: { ...failed, reason: "overloaded" } })).thenRejects(alreadyAnswered)
  })

  it("keeps the first outcome: an answer after a failure, or a failure after an answer, is refused", () => {
    asks.given([wasPosed, wasFailed]).when(AskCommand.Answer({ answered })).thenRejects(alreadyAnswered)
    asks.given([wasPosed, wasAnswered]).when(AskCommand.Fail({ failed })).thenRejects(alreadyAnswered)
  })

  it("confirms a kept quote of an answer once, as its asker; no other quote, no one else, no failed question", () => {
    const quote = { askId, user, messageId: MessageId.make("telegram:100000001:1"), start: 0, end: 23, confirmedAt: at(9) }
    const wasConfirmed: AskEvent = { _tag: "AskQuoteConfirmed", ...quote }
    asks.given([wasPosed, wasAnswered]).when(AskCommand.Confirm({ confirmed: quote })).then([wasConfirmed])
    asks.given([wasPosed, wasAnswered, wasConfirmed]).when(AskCommand.Confirm({ confirmed: { ...quote, confirmedAt: at(10) } }))
      .thenRejects(rejected("unchanged", "the quote is confirmed already"))
    asks.given([wasPosed, wasAnswered]).when(AskCommand.Confirm({ confirmed: { ...quote, end: 22 } }))
      .thenRejects(rejected("no-such-option", "the answer has no such quote"))
    asks.given([wasPosed, wasAnswered]).when(AskCommand.Confirm({ confirmed: { ...quote, user: UserId.make("telegram:2") } }))
      .thenRejects(rejected("not-yours", "the question is someone else's"))
    asks.given([wasPosed, wasFailed]).when(AskCommand.Confirm({ confirmed: quote })).thenRejects(rejected("not-found", "no such answer"))
    asks.given([wasPosed]).when(AskCommand.Confirm({ confirmed: quote })).thenRejects(rejected("not-found", "no such answer"))
    expect(fold(askDecider, [wasPosed, wasAnswered, wasConfirmed])).toEqual({
      _tag: "Finished",
      posed: wasPosed,
      outcome: wasAnswered,
      confirmed: new Set(["telegram:100000001:1:0-23"])
    })
  })

  it("answers or fails no question that was never posed", () => {
    asks.given([]).when(AskCommand.Answer({ answered })).thenRejects(notFound)
    asks.given([]).when(AskCommand.Fail({ failed })).thenRejects(notFound)
    asks.given([wasAnswered]).when(AskCommand.Answer({ answered })).thenRejects(notFound)
  })

  it("folds a stream to its question and its first outcome", () => {
    const states: ReadonlyArray<AskState> = [
      fold(askDecider, []),
      fold(askDecider, [wasPosed]),
      fold(askDecider, [wasPosed, wasAnswered]),
      fold(askDecider, [wasPosed, wasFailed, wasAnswered]),
      fold(askDecider, [wasAnswered])
    ]
    expect(states).toEqual([
      { _tag: "None" },
      { _tag: "Posed", posed: wasPosed },
      { _tag: "Finished", posed: wasPosed, outcome: wasAnswered, confirmed: new Set() },
      { _tag: "Finished", posed: wasPosed, outcome: wasFailed, confirmed: new Set() },
      { _tag: "None" }
    ])
  })
})
