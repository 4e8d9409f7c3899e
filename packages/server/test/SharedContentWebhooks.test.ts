/**
 * Shared content through the real webhooks: a contact or a location is captured as its rendered
 * text, a voice note's attachment is recorded with the message (so it can be fetched later), and
 * whatever is still ignored is logged and counted by kind — never silently dropped.
 */
import { describe, expect, it } from "@effect/vitest"
import { attachment } from "@verbatim/domain/Attachment"
import { EventStore, start } from "@verbatim/projections/EventStore"
import { Effect } from "effect"
import { capturedTexts, eventLog, fixture, Harness, layer, telegram, whatsApp } from "./harness.js"

const update = (updateId: number, fields: Record<string, unknown>) =>
  JSON.stringify({
    update_id: updateId,
    message: { message_id: updateId, from: { id: 100000001, first_name: "Alice" }, chat: { id: 100000001, type: "private" }, date: 1700000000, ...fields }
  })

/** The value of one counter line in `/metrics`, 0 when absent. */
const counter = (line: string) =>
  Effect.map(Effect.flatMap(Harness, (h) => h.request("GET", "/metrics")), (reply) => {
    const found = reply.body.split("\n").find((l) => l.startsWith(`${line} `))
    return found === undefined ? 0 : Number(found.slice(line.length + 1))
  })

const ignoredLine = (provider: string, kind: string) =>
  `verbatim_webhook_items_ignored_total{provider="${provider}",kind="${kind}"}`

describe("shared content through the webhooks", () => {
  it.effect("captures a contact and a location as text of their kind", () =>
    Effect.gen(function*() {
      expect(yield* telegram(update(1, { contact: { phone_number: "+351 912 345 678", first_name: "Ana", last_name: "Souza" } })))
        .toEqual({ status: 200, body: "" })
      expect(yield* telegram(update(2, { location: { latitude: 38.7223, longitude: -9.1393 } }))).toEqual({ status: 200, body: "" })
      expect(yield* capturedTexts).toEqual(["Contact: Ana Souza, +351 912 345 678", "Location: 38.7223, -9.1393"])
    }).pipe(Effect.provide(layer([]))))

  it.effect("records a voice note's attachment with the message, whole", () =>
    Effect.gen(function*() {
      expect(yield* telegram(fixture("telegram/04_voice_supergroup.json"))).toEqual({ status: 200, body: "" })
      const events = yield* Effect.flatMap(EventStore, (store) => store.readPage(start, 100))
      const received = events.flatMap((e) => e.event._tag === "MessageReceived" ? [e.event.message] : [])
      expect(received.map((m) => [m.kind, m.text, m.attachments, m.links, m.mediaGroup])).toEqual([[
        "media-without-text",
        "",
        [attachment("voice", "AwACAgQAAyEFAATtoKNZAAM4aepxAh2vKjfqLHAaipHgqUxlnZYAAgYaAAIpbVlTTGxj9NGdrwE7BA", {
          uniqueId: "AgADBhoAAiltWVM",
          mimeType: "audio/ogg",
          size: 14663,
          duration: 3
        })],
        [],
        null
      ]])
    }).pipe(Effect.provide(layer([]))))

  it.effect("counts what it ignores by provider and kind, and records nothing for it", () =>
    Effect.gen(function*() {
      const before = {
        dice: yield* counter(ignoredLine("telegram", "dice")),
        reaction: yield* counter(ignoredLine("whatsapp", "reaction"))
      }
      expect(yield* telegram(update(3, { dice: { emoji: "🎲", value: 4 } }))).toEqual({ status: 200, body: "" })
      expect((yield* whatsApp(fixture("whatsapp/10_reaction_pywa.json"))).status).toEqual(200)
      expect({
        dice: (yield* counter(ignoredLine("telegram", "dice"))) - before.dice,
        reaction: (yield* counter(ignoredLine("whatsapp", "reaction"))) - before.reaction
      }).toEqual({ dice: 1, reaction: 1 })
      expect(yield* eventLog).toEqual([])
    }).pipe(Effect.provide(layer([]))))
})
