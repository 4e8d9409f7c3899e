import { describe, expect, it } from "@effect/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { FakeWhatsApp } from "@verbatim/testkit/FakeWhatsApp"
import { Effect, Either, Option, Redacted, Runtime } from "effect"
import fc from "fast-check"
import { fitLabel } from "../src/internal/whatsAppMessage.js"
import { type Button, WhatsAppClient } from "../src/Providers/ProviderClients.js"
import { failure, whatsAppSettings, withClients } from "./clientLayers.js"

const choices = (...labels: ReadonlyArray<string>): ReadonlyArray<Button> => labels.map((label, i) => ({ label, data: `q_1:${i}` }))
const base = { messaging_product: "whatsapp", recipient_type: "individual", to: "15550001111" }

describe("WhatsAppClient against a fake Cloud API", () => {
  it.scoped("sends text, reply buttons (titles cut to 20) and a list for more than 3 choices", () =>
    Effect.gen(function*() {
      const fake = yield* FakeWhatsApp.make()
      const sent = yield* Effect.flatMap(WhatsAppClient, (whatsApp) =>
        Effect.all([
          whatsApp.sendMessage("15550001111", "Added 2 notes: Alice, Bob."),
          whatsApp.sendMessage("15550001111", "Who is this about?", choices("Alice", "Keep as my own note, please")),
          whatsApp.sendMessage("15550001111", "Who?", choices("Alice", "Bob", "Carol", "Someone else", "Keep as my own note in full"))
        ])).pipe(Effect.provide(withClients(whatsAppSettings(fake))))
      expect(sent).toEqual([
        { providerMessageId: "wamid.FAKE-OUT-1" },
        { providerMessageId: "wamid.FAKE-OUT-2" },
        { providerMessageId: "wamid.FAKE-OUT-3" }
      ])
      const authorization = `Bearer ${fake.accessToken}`
      expect(yield* fake.calls).toEqual([
        { phoneNumberId: fake.phoneNumberId, authorization, body: { ...base, type: "text", text: { preview_url: false, body: "Added 2 notes: Alice, Bob." } } },
        {
          phoneNumberId: fake.phoneNumberId,
          authorization,
          body: {
            ...base,
            type: "interactive",
            interactive: {
              type: "button",
              body: { text: "Who is this about?" },
              action: {
                buttons: [
                  { type: "reply", reply: { id: "q_1:0", title: "Alice" } },
                  { type: "reply", reply: { id: "q_1:1", title: "Keep as my own note…" } }
                ]
              }
            }
          }
        },
        {
          phoneNumberId: fake.phoneNumberId,
          authorization,
          body: {
            ...base,
            type: "interactive",
            interactive: {
              type: "list",
              body: { text: "Who?" },
              action: {
                button: "Choose",
                sections: [{
                  title: "Choices",
                  rows: [
                    { id: "q_1:0", title: "Alice" },
                    { id: "q_1:1", title: "Bob" },
                    { id: "q_1:2", title: "Carol" },
                    { id: "q_1:3", title: "Someone else" },
                    { id: "q_1:4", title: "Keep as my own note in…", description: "Keep as my own note in full" }
                  ]
                }]
              }
            }
          }
        }
      ])
    }))

  it.scoped("classifies failures; more than 10 choices and no configuration send nothing", () =>
    Effect.gen(function*() {
      const fake = yield* FakeWhatsApp.make()
      yield* fake.failNext(1, "rate-limited")
      yield* fake.failNext(1, "server")
      yield* fake.failNext(1, "bad-request")
      const send = (buttons: ReadonlyArray<Button> = []) =>
        Effect.flatMap(WhatsAppClient, (whatsApp) => Effect.either(whatsApp.sendMessage("15550001111", "hi", buttons)))
      const results = yield* Effect.all([
        send(),
        send(),
        send(),
        send(choices(...Array.from({ length: 11 }, (_, i) => `Person ${i}`)))
      ]).pipe(Effect.provide(withClients(whatsAppSettings(fake))))
      const wrongToken = yield* send().pipe(
        Effect.provide(withClients({ ...whatsAppSettings(fake), whatsAppAccessToken: Option.some(Redacted.make("WRONG")) }))
      )
      const unconfigured = yield* send().pipe(Effect.provide(withClients({ whatsAppApiBase: fake.baseUrl })))
      expect([...results, wrongToken, unconfigured]).toEqual([
        failure({ provider: "whatsapp", reason: "rate-limited", retryable: true, status: 429, detail: "(#130429) Rate limit hit" }),
        failure({ provider: "whatsapp", reason: "unavailable", retryable: true, status: 500, detail: "(#131000) Something went wrong" }),
        failure({ provider: "whatsapp", reason: "rejected", retryable: false, status: 400, detail: "(#131009) Parameter value is not valid" }),
        failure({ provider: "whatsapp", reason: "invalid-request", retryable: false, status: null, detail: "11 choices: a WhatsApp list holds at most 10" }),
        failure({
          provider: "whatsapp",
          reason: "rejected",
          retryable: false,
          status: 401,
          detail: "(#190) Invalid OAuth access token - Cannot parse access token"
        }),
        failure({
          provider: "whatsapp",
          reason: "not-configured",
          retryable: false,
          status: null,
          detail: "WHATSAPP_ACCESS_TOKEN or WHATSAPP_PHONE_NUMBER_ID is not set"
        })
      ])
      expect((yield* fake.calls).map((call) => call.authorization)).toEqual([
        `Bearer ${fake.accessToken}`,
        `Bearer ${fake.accessToken}`,
        `Bearer ${fake.accessToken}`,
        "Bearer WRONG"
      ])
    }))

  it.scoped("any 1 to 10 choices pass the Cloud API limits and carry their data back verbatim", () =>
    Effect.gen(function*() {
      const fake = yield* FakeWhatsApp.make()
      const layer = withClients(whatsAppSettings(fake))
      const run = Runtime.runPromise(yield* Effect.runtime<never>())
      const label = fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== "")
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(fc.array(label, { minLength: 1, maxLength: 10 }), async (labels) => {
            const result = await run(
              Effect.flatMap(WhatsAppClient, (whatsApp) => Effect.either(whatsApp.sendMessage("15550001111", "Who?", choices(...labels))))
                .pipe(Effect.provide(layer))
            )
            expect(Either.isRight(result)).toBe(true)
          }),
          { numRuns: propertyRuns(40) }
        )
      )
      const ids = (yield* fake.calls).map((call) => {
        const action = (call.body as { interactive: { action: { buttons?: Array<{ reply: { id: string } }>; sections?: Array<{ rows: Array<{ id: string }> }> } } })
          .interactive.action
        return (action.buttons?.map((b) => b.reply.id) ?? action.sections?.[0]?.rows.map((r) => r.id) ?? []).every((id, i) => id === `q_1:${i}`)
      })
      expect(ids.every((ok) => ok)).toBe(true)
    }))

  it("cuts a label at a grapheme boundary within the limit, marked with an ellipsis", () => {
    expect([fitLabel("Keep as my own note", 20), fitLabel("👩‍👩‍👧‍👦 family of Zoë Smith-Jones", 12), fitLabel("abcdef", 3)]).toEqual([
      "Keep as my own note",
      "👩‍👩‍👧‍👦 fam…",
      "ab…"
    ])
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), fc.integer({ min: 2, max: 30 }), (text, max) => {
        const cut = fitLabel(text, max)
        const fits = [...text].length <= max
        expect(fits ? cut === text : [...cut].length <= max && cut.endsWith("…") && text.startsWith(cut.slice(0, -1))).toBe(true)
      }),
      { numRuns: propertyRuns(500) }
    )
  })

  it.scoped("sends a template in place of the text, its parameter made one line; the fake refuses free-form past the window and takes the template", () =>
    Effect.gen(function*() {
      const fake = yield* FakeWhatsApp.make()
      yield* fake.closeWindow("15550001111")
      const template = { name: "verbatim_reminder", language: "pt_PT", parameters: ["Call Ana\nabout the\t sublet     today."] }
      const sent = yield* Effect.flatMap(WhatsAppClient, (whatsApp) =>
        Effect.all([
          Effect.either(whatsApp.sendMessage("15550001111", "Reminder: Call Ana")),
          whatsApp.sendMessage("15550001111", "Reminder: Call Ana", [], template)
        ])).pipe(Effect.provide(withClients(whatsAppSettings(fake))))
      expect(sent[0]).toEqual(failure({ provider: "whatsapp", reason: "rejected", retryable: false, status: 400, detail: "(#131047) Re-engagement message" }))
      expect(sent[1]).toEqual({ providerMessageId: "wamid.FAKE-OUT-1" })
      expect((yield* fake.calls).at(-1)?.body).toEqual({
        ...base,
        type: "template",
        template: {
          name: "verbatim_reminder",
          language: { code: "pt_PT" },
          components: [{ type: "body", parameters: [{ type: "text", text: "Call Ana about the sublet today." }] }]
        }
      })
    }))
})
