/** How the model sees stored messages under a prompt that plans reminders: each with its send time on the sender's clock. */
import { makeInboundMessage } from "@verbatim/domain/Message"
import { MessageId, SessionId, UserId } from "@verbatim/domain/Ids"
import { DateTime } from "effect"
import { describe, expect, it } from "vitest"
import { planningMessages } from "../src/Planning.js"

const stored = (seq: number, receivedAt: string, sentAt?: string) =>
  makeInboundMessage({
    id: MessageId.make(`telegram:1:${seq}`),
    sessionId: SessionId.make("s1"),
    seq,
    provider: "telegram",
    providerMessageId: `1:${seq}`,
    sender: UserId.make("telegram:1"),
    chat: "1",
    text: `message ${seq}`,
    kind: "text",
    forwardedFrom: null,
    replyTo: null,
    attachments: [],
    links: [],
    mediaGroup: null,
    receivedAt: DateTime.unsafeMake(receivedAt),
    ...(sentAt === undefined ? {} : { sentAt: DateTime.unsafeMake(sentAt) })
  })

describe("planningMessages", () => {
  it("gives each message the time it was sent on the sender's clock, or when it was received if its send time was not kept", () => {
    const messages = [stored(1, "2026-03-30T09:00:05Z", "2026-03-30T08:59:00Z"), stored(2, "2026-01-10T12:00:00Z")]
    expect(planningMessages(messages, "Europe/Lisbon").map((m) => m.at)).toEqual(["2026-03-30T09:59", "2026-01-10T12:00"])
    expect(planningMessages(messages).map((m) => m.at)).toEqual([undefined, undefined])
  })
})
