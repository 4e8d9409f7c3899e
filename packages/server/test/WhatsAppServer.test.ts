/** WhatsApp end to end through the real HTTP server: signed bodies → sessions → plans → notes → replies. */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan, type Plan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import type { Event } from "@verbatim/domain/Events"
import { Effect, Exit } from "effect"
import { StoreError } from "@verbatim/projections/EventStore"
import {
  capturedTexts,
  closeIdle,
  drain,
  eventLog,
  fixture,
  Harness,
  imageShowing,
  layer,
  noteBody,
  voiceSaying,
  whatsApp,
  whatsAppCalls,
  whatsAppVerifyToken
} from "./harness.js"

/** The media ids of the image and voice-note fixtures. */
const imageMedia = (path: string): string => JSON.parse(fixture(path)).entry[0].changes[0].value.messages[0].image.id
const audioMedia = (path: string): string => JSON.parse(fixture(path)).entry[0].changes[0].value.messages[0].audio.id

const unattached = (...seqs: ReadonlyArray<number>): Plan => ({ ...emptyPlan, unattached: [{ sourceItemSeqs: seqs, directives: [] }] })

/** A body of text messages from 15550001111 in Meta's shape, `[wamid, text]` each. */
const textsBody = (...messages: ReadonlyArray<readonly [string, string]>) =>
  JSON.stringify({
    object: "whatsapp_business_account",
    entry: [{
      id: "102290129340398",
      changes: [{
        field: "messages",
        value: {
          messaging_product: "whatsapp",
          metadata: { display_phone_number: "15550000000", phone_number_id: "106540352242922" },
          contacts: [{ profile: { name: "Test User A" }, wa_id: "15550001111" }],
          messages: messages.map(([id, text]) => ({ from: "15550001111", id, timestamp: "1767225600", type: "text", text: { body: text } }))
        }
      }]
    }]
  })

/** A text body from 15550001111 in Meta's shape. */
const textBody = (id: string, text: string) => textsBody([id, text])

/** A fixture with its sender and message id swapped, to act on an earlier message of ours. */
const withMessage = (path: string, change: (message: Record<string, any>) => void) => {
  const body = JSON.parse(fixture(path))
  change(body.entry[0].changes[0].value.messages[0])
  return JSON.stringify(body)
}

const text = (to: string, body: string) => ({
  messaging_product: "whatsapp",
  recipient_type: "individual",
  to,
  type: "text",
  text: { preview_url: false, body }
})

const ok = { status: 200, body: "" }

describe("WhatsApp webhook end to end", () => {
  it.effect("a text and an image caption: one note, one reply", () =>
    Effect.gen(function*() {
      yield* imageShowing("whatsapp", imageMedia("whatsapp/02_image_with_caption_meta_docs.json"), "TAJ MAHAL\nAgra, India")
      expect(yield* whatsApp(fixture("whatsapp/01_text_meta_docs.json"))).toEqual(ok)
      expect(yield* whatsApp(fixture("whatsapp/02_image_with_caption_meta_docs.json"))).toEqual(ok)
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* noteBody("note_1")).toBe("Does it come in another color?\n\nTaj Mahal\n🖼 TAJ MAHAL\nAgra, India")
      expect(yield* drain).toEqual({ sent: 1, failed: 0, held: 0 })
      expect(yield* whatsAppCalls).toEqual([text("15550001111", "Added 1 note: Leila.")])
    }).pipe(Effect.provide(layer([
      planStep({ ...emptyPlan, people: [{ contactId: null, name: "Leila", notes: [{ sourceItemSeqs: [1, 2], directives: [] }] }] })
    ]))))

  it.effect("a voice note, a forwarded audio and a reply with context, each its own session and note", () =>
    Effect.gen(function*() {
      const kinds = [
        "whatsapp/03_audio_voice_note_pywa.json",
        "whatsapp/08_text_forwarded_pywa.json",
        "whatsapp/11_text_reply_context_pywa.json"
      ]
      yield* voiceSaying("whatsapp", audioMedia(kinds[0]!), "Remind me that Tomás is allergic to peanuts.")
      for (const [index, path] of kinds.entries()) {
        // The pywa fixtures share one message id; give each its own so none is a redelivery.
        expect(yield* whatsApp(withMessage(path, (m) => void (m.id = `wamid.KIND-${index}`)))).toEqual(ok)
        expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      }
      expect([yield* noteBody("note_1"), yield* noteBody("note_2"), yield* noteBody("note_3")]).toEqual([
        "🎤 Remind me that Tomás is allergic to peanuts.",
        "forwarded text",
        "replied text"
      ])
      expect(yield* drain).toEqual({ sent: 3, failed: 0, held: 0 })
      expect(yield* whatsAppCalls).toEqual([
        text("972987654321", "Added 1 note: your own notes."),
        text("972987654321", "Added 1 note: your own notes."),
        text("972987654321", "Added 1 note: your own notes.")
      ])
    }).pipe(Effect.provide(layer([planStep(unattached(1)), planStep(unattached(1)), planStep(unattached(1))]))))

  it.effect("an edit of a captured caption changes the note body", () =>
    Effect.gen(function*() {
      const original = "wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA="
      yield* imageShowing("whatsapp", imageMedia("whatsapp/02_image_with_caption_meta_docs.json"), "No text here but this")
      expect(yield* whatsApp(withMessage("whatsapp/02_image_with_caption_meta_docs.json", (m) => {
        m.id = original
        m.from = "16505551234"
      }))).toEqual(ok)
      expect(yield* whatsApp(fixture("whatsapp/12_edit_image_caption_pywa.json"))).toEqual(ok)
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* noteBody("note_1")).toBe("Updated image caption\n🖼 No text here but this")
    }).pipe(Effect.provide(layer([planStep(unattached(1))]))))

  it.effect("a question answered by an interactive button files one note; statuses and reactions are ignored", () =>
    Effect.gen(function*() {
      expect(yield* whatsApp(textBody("wamid.Q-1", "Lunch with her next week"))).toEqual(ok)
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* drain).toEqual({ sent: 2, failed: 0, held: 0 })
      const answer = (id: string) =>
        withMessage("whatsapp/04_interactive_button_reply_meta_docs.json", (m) => {
          m.id = id
          m.interactive.button_reply = { id: "a:q_1:0", title: "Ana" }
        })
      expect(yield* whatsApp(answer("wamid.A-1"))).toEqual(ok)
      expect(yield* whatsApp(answer("wamid.A-2"))).toEqual(ok)
      const before = yield* eventLog
      for (const path of ["06_status_sent_meta_docs.json", "06b_status_read_pywa.json", "10_reaction_pywa.json"]) {
        expect(yield* whatsApp(fixture(`whatsapp/${path}`))).toEqual(ok)
      }
      expect(yield* eventLog).toEqual(before)
      expect(yield* drain).toEqual({ sent: 2, failed: 0, held: 0 })
      expect(yield* noteBody("note_1")).toBe("Lunch with her next week")
      expect(yield* whatsAppCalls).toEqual([
        text("15550001111", "Added no notes. 1 question."),
        {
          messaging_product: "whatsapp",
          recipient_type: "individual",
          to: "15550001111",
          type: "interactive",
          interactive: {
            type: "button",
            body: { text: "Who is this about?\n\n«Lunch with her next week»" },
            action: {
              buttons: [
                { type: "reply", reply: { id: "a:q_1:0", title: "Ana" } },
                { type: "reply", reply: { id: "a:q_1:1", title: "Keep as my own note" } }
              ]
            }
          }
        },
        text("15550001111", "Filed under Ana."),
        text("15550001111", "That question was already answered; nothing changed.")
      ])
    }).pipe(Effect.provide(layer([planStep({ ...emptyPlan, unclear: [{ sourceItemSeqs: [1], candidates: ["Ana"] }] })]))))

  it.effect("a batched body: every change is walked; the same message id twice is captured once", () =>
    Effect.gen(function*() {
      const batched = fixture("whatsapp/07_batched_two_changes_netflie.json")
      expect(yield* whatsApp(batched)).toEqual(ok)
      const distinct = JSON.parse(batched)
      distinct.entry[0].changes[1].value.messages[0].id = "wamid.ID2"
      expect(yield* whatsApp(JSON.stringify(distinct))).toEqual(ok)
      expect(yield* eventLog).toEqual([
        "session-whatsapp:PHONE_NUMBER:PHONE_NUMBER:1#1 SessionOpened",
        "session-whatsapp:PHONE_NUMBER:PHONE_NUMBER:1#2 MessageReceived",
        "session-whatsapp:PHONE_NUMBER:PHONE_NUMBER:1#3 MessageReceived"
      ])
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* noteBody("note_1")).toBe("MESSAGE_BODY\n\nMESSAGE_BODY2")
    }).pipe(Effect.provide(layer([planStep(unattached(1, 2))]))))

  it.effect("the subscription check answers the challenge only with the verify token", () =>
    Effect.gen(function*() {
      const harness = yield* Harness
      const verify = (token: string) =>
        harness.request("GET", `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`)
      expect(yield* verify(whatsAppVerifyToken)).toEqual({ status: 200, body: "1158201444" })
      expect((yield* verify("wrong")).status).toBe(401)
    }).pipe(Effect.provide(layer([]))))

  it.effect("a question about four long messages fits WhatsApp's 1,024-character body, so it is delivered", () =>
    Effect.gen(function*() {
      const long = "Ana told me about the new clinic schedule and the move. ".repeat(6)
      for (const id of ["wamid.L-1", "wamid.L-2", "wamid.L-3", "wamid.L-4"]) expect(yield* whatsApp(textBody(id, long))).toEqual(ok)
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      expect(yield* drain).toEqual({ sent: 2, failed: 0, held: 0 })
      const [, question] = (yield* whatsAppCalls) as ReadonlyArray<{ readonly interactive?: { readonly body: { readonly text: string } } }>
      const excerpt = `«${"Ana told me about the new clinic schedule and the move. ".repeat(4)}Ana told me about the…»`
      expect(question?.interactive?.body.text).toBe(["Who is this about?", excerpt, excerpt, excerpt, excerpt].join("\n\n"))
    }).pipe(Effect.provide(layer([
      planStep({ ...emptyPlan, unclear: [{ sourceItemSeqs: [1, 2, 3, 4], candidates: ["Ana", "Bea"] }] })
    ]))))

  it.effect("an item the store keeps refusing answers 500 only after every other item of the body is recorded", () =>
    Effect.gen(function*() {
      const body = textsBody(["wamid.1", "Ana moved to Lyon"], ["wamid.2", "poison"], ["wamid.3", "Tom got the job"])
      expect(yield* whatsApp(body)).toEqual({ status: 500, body: "" })
      expect(yield* whatsApp(body)).toEqual({ status: 500, body: "" })
      expect(yield* capturedTexts).toEqual(["Ana moved to Lyon", "Tom got the job"])
    }).pipe(Effect.provide(layer([], {
      eventStore: (store) => {
        const poisoned = (events: ReadonlyArray<Event>) => events.some((e) => e._tag === "MessageReceived" && e.message.text === "poison")
        const refusal = new StoreError({ reason: "sql", message: "the disk is full" })
        return {
          ...store,
          append: (stream, expected, events, options) =>
            poisoned(events) ? Effect.fail(refusal) : store.append(stream, expected, events, options),
          // A batch whose append carries the poison fails that append alone, as the store's own batches do.
          appendBatch: (appends) =>
            Effect.forEach(appends, (a) => poisoned(a.events) ? Effect.succeed(Exit.fail(refusal)) : Effect.exit(store.append(a.stream, a.expectedVersion, a.events, a.options)))
        }
      }
    }))))
})
