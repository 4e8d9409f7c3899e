/** `GET /api/events` pages are bounded by payload bytes as well as by count, and paging always moves on. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { client } from "./apiClient.js"
import { layer, telegram } from "./harness.js"

/** A private text from Alice with its own message id. */
const aliceText = (messageId: number, text: string) =>
  JSON.stringify({
    update_id: messageId,
    message: {
      message_id: messageId,
      from: { id: 100000001, is_bot: false, first_name: "Alice" },
      chat: { id: 100000001, type: "private" },
      date: 1767225600,
      text
    }
  })

describe("events paging", () => {
  it.effect("a page stops before its payloads pass the byte budget; an event larger than the budget is a page of its own", () =>
    Effect.gen(function*() {
      for (const [id, size] of [[1, 20_000], [2, 20_000], [3, 20_000], [4, 60_000]] as const) {
        expect(yield* telegram(aliceText(id, "a".repeat(size)))).toEqual({ status: 200, body: "" })
      }
      const pages: Array<[ReadonlyArray<string>, string]> = []
      let after = "0:0"
      for (let i = 0; i < 5; i++) {
        const page = yield* client((c) => c.api.events({ urlParams: { after, limit: 500 } }))
        pages.push([page.events.map((e) => `${e.position} ${e.event._tag}`), page.nextAfter])
        after = page.nextAfter
      }
      expect(pages).toEqual([
        [["1 SessionOpened", "2 MessageReceived", "3 MessageReceived"], "0:3"],
        [["4 MessageReceived"], "0:4"],
        [["5 MessageReceived"], "0:5"],
        [[], "0:5"],
        [[], "0:5"]
      ])
      // The count still bounds a page of small events.
      expect((yield* client((c) => c.api.events({ urlParams: { limit: 2 } }))).events.map((e) => e.position)).toEqual([1, 2])
    }).pipe(Effect.provide(layer([], { settings: { eventsPageBytes: 45_000 } }))))
})
