/** Test helpers that check provenance independently of the assembly code. */
import { expect } from "@effect/vitest"
import type { Cut, Tile } from "../src/ApplyPlan/Assembly.js"
import type { Segment } from "../src/Decision.js"
import type { MessageText } from "../src/Message.js"

const splitsPair = (text: string, at: number): boolean =>
  /[\ud800-\udbff]/.test(text.charAt(at - 1)) && /[\udc00-\udfff]/.test(text.charAt(at))

/** Asserts the tiles cover the message end to end, each kind holding what it claims to hold. */
export const expectTiled = (message: MessageText, tiles: ReadonlyArray<Tile>, cuts: ReadonlyArray<Cut>): void => {
  let at = 0
  for (const tile of tiles) {
    expect({ start: tile.start, nonEmpty: tile.end > tile.start }).toEqual({ start: at, nonEmpty: true })
    expect([splitsPair(message.text, tile.start), splitsPair(message.text, tile.end)]).toEqual([false, false])
    const text = message.text.slice(tile.start, tile.end)
    if (tile.kind === "whitespace") expect(text.trim()).toBe("")
    if (tile.kind === "cut") {
      expect(cuts.filter((cut) => cut.messageId === message.id && cut.start === tile.start).map((cut) => cut.text))
        .toEqual([text])
    }
    at = tile.end
  }
  expect(at).toBe(message.text.length)
}

/** The text a list of segments stands for, read straight from the messages. */
export const textOfSegments = (messages: ReadonlyArray<MessageText>, segments: ReadonlyArray<Segment>): string =>
  segments.map((segment) =>
    segment._tag === "Separator"
      ? segment.text
      : messages.find((message) => message.id === segment.messageId)!.text.slice(segment.start, segment.end)
  ).join("")
