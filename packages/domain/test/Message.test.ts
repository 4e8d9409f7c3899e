import { describe, expect, it } from "@effect/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { DateTime, Either } from "effect"
import fc from "fast-check"
import { attachment } from "../src/Attachment.js"
import { InboundMessage, makeInboundMessage } from "../src/Message.js"

const runs = { numRuns: propertyRuns(1_000) }

type Fields = ConstructorParameters<typeof InboundMessage>[0]

const valid: Fields = InboundMessage.make({
  id: "telegram:42" as InboundMessage["id"],
  sessionId: "telegram:100:200:1" as InboundMessage["sessionId"],
  seq: 3,
  provider: "telegram",
  providerMessageId: "42",
  sender: "telegram:200" as InboundMessage["sender"],
  chat: "100",
  text: "Ana moved to Lyon",
  kind: "text",
  forwardedFrom: null,
  replyTo: "41",
  attachments: [attachment("voice", "AwACAg", { duration: 42, mimeType: "audio/ogg" })],
  links: [{ offset: 0, length: 3, url: "https://example.com/ana" }],
  mediaGroup: null,
  receivedAt: DateTime.unsafeMake("2026-11-30T10:00:00Z")
})

/** A field's value: usually one the schema takes, sometimes one it refuses. */
const field = (good: ReadonlyArray<unknown>, bad: ReadonlyArray<unknown>) =>
  fc.oneof({ arbitrary: fc.constantFrom(...good), weight: 12 }, { arbitrary: fc.constantFrom(...bad), weight: 1 })

const fields = fc.record({
  id: field(["telegram:42", ""], [42, null]),
  sessionId: field(["s"], [undefined]),
  seq: field([1, 3, 2 ** 40], [0, -1, 1.5, NaN, Infinity, "1"]),
  provider: field(["telegram", "whatsapp"], ["signal"]),
  providerMessageId: field(["42"], [42]),
  sender: field(["telegram:200"], [null]),
  chat: field(["100"], [100]),
  text: field(["", "Ana\u0000 e\u0301 \ud83d"], [undefined]),
  kind: field(["text", "caption", "transcript", "media-without-text", "contact", "location", "poll"], ["voice"]),
  forwardedFrom: field([null, "Bea"], [1]),
  replyTo: field([null, "41"], [undefined]),
  attachments: field([[], valid.attachments], [[{ kind: "voice" }], null]),
  links: field([[], valid.links], [[{ offset: -1, length: 1, url: "u" }], undefined]),
  mediaGroup: field([null, "13579"], [1]),
  receivedAt: field([valid.receivedAt], [DateTime.unsafeMakeZoned(0, { timeZone: "Europe/Paris" }), "2026-11-30T10:00:00Z", new Date(0)])
}) as unknown as fc.Arbitrary<Fields>

const checked = (input: Fields) => InboundMessage.make(input)

const attempt = (make: (fields: Fields) => InboundMessage, input: Fields) =>
  Either.try({ try: () => make(input), catch: (error) => String(error) })

describe("makeInboundMessage", () => {
  it("builds the same message as the class's checked constructor", () => {
    const made = makeInboundMessage(valid)
    expect(made).toBeInstanceOf(InboundMessage)
    expect({ ...made }).toEqual({ ...InboundMessage.make(valid) })
    expect({ ...made }).toEqual({ ...valid })
  })

  it("refuses a non-positive seq as the class does, with the same message", () => {
    const input = { ...valid, seq: 0 }
    const ours = attempt(makeInboundMessage, input)
    const theirs = attempt(checked, input)
    expect(Either.isLeft(ours)).toBe(true)
    expect(Either.getLeft(ours)).toEqual(Either.getLeft(theirs))
  })

  it("accepts and refuses exactly what InboundMessage.make does", () => {
    fc.assert(
      fc.property(fields, (input) => {
        const ours = attempt(makeInboundMessage, input)
        const theirs = attempt(checked, input)
        if (Either.isRight(theirs)) expect({ ...Either.getOrThrow(ours) }).toEqual({ ...theirs.right })
        else expect(Either.getLeft(ours)).toEqual(Either.getLeft(theirs))
      }),
      runs
    )
  })
})
