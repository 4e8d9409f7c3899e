/**
 * Work wakes on the event, not on the clock: with the outbox, the plan trigger and the media
 * worker running as the server runs them but polling only once a minute, `/done` is planned and
 * answered, and a photo is fetched and read, as soon as their events are appended, long before
 * any poll would have found them; and a model call that takes its time holds up no other user.
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import * as MediaWorker from "../src/Media/Worker.js"
import { PlanTrigger } from "../src/Planning/PlanTrigger.js"
import * as Outbox from "../src/Providers/Outbox.js"
import { FakeAnthropic } from "@verbatim/testkit"
import { eventually } from "./eventually.js"
import { aliceUpdate, eventLog, fakeAnthropicModel, imageShowing, layer, layerOver, senderUpdate, telegram, telegramCalls } from "./harness.js"

const plan = { ...emptyPlan, people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1, 2], directives: [] }] }] }


describe("work woken by its events", () => {
  it.live("a /done is planned and its reply sent, and a photo read, with every poll a minute apart", () =>
    Effect.gen(function*() {
      yield* Effect.forkScoped(Outbox.runEvery("60 seconds"))
      yield* Effect.forkScoped(MediaWorker.runEvery("60 seconds"))
      yield* Effect.forkScoped(Effect.flatMap(PlanTrigger, (trigger) => trigger.follow("60 seconds")))
      // Each loop's first pass runs as it starts; let them settle into their waits.
      yield* Effect.sleep("200 millis")
      yield* imageShowing("telegram", "card", "Ana Souza, architect")
      const photo = { photo: [{ file_id: "card", file_unique_id: "u-card", width: 900, height: 300, file_size: 20000 }], caption: "Ana's card" }
      expect(yield* telegram(aliceUpdate(1, photo))).toEqual({ status: 200, body: "" })
      const log = yield* eventually(eventLog, (lines) => lines.some((line) => line.endsWith(" MediaTranscribed")))
      expect(log.map((line) => line.split(" ")[1]).filter((tag) => tag?.startsWith("Media") === true)).toEqual(["MediaFetched", "MediaTranscribed"])

      expect(yield* telegram(aliceUpdate(2, { text: "She moved to Porto." }))).toEqual({ status: 200, body: "" })
      expect(yield* telegram(aliceUpdate(3, { text: "/done" }))).toEqual({ status: 200, body: "" })
      const sent = yield* eventually(telegramCalls, (calls) => calls.some((c) => c.method === "sendMessage"))
      expect(sent.filter((c) => c.method === "sendMessage").map((c) => (c.body as { text: string }).text)).toEqual(["Added 1 note: Ana."])
    }).pipe(Effect.scoped, Effect.provide(layer([planStep(plan)]))), 60_000)

  it.live("a slow model call holds up only its own user: Bob's session, closed after Alice's, is answered first", () =>
    Effect.gen(function*() {
      yield* Effect.forkScoped(Outbox.runEvery("60 seconds"))
      yield* Effect.forkScoped(Effect.flatMap(PlanTrigger, (trigger) => trigger.follow("60 seconds")))
      yield* Effect.sleep("200 millis")
      const fake = yield* FakeAnthropic.FakeAnthropic
      yield* fake.script(FakeAnthropic.FakeReply.after(3000, FakeAnthropic.FakeReply.toolUse(plan)), FakeAnthropic.FakeReply.toolUse(plan))
      for (const [sender, id, text] of [[100000001, 1, "Ana moved to Porto."], [100000001, 2, "/done"], [100000002, 1, "Ana moved to Porto."], [100000002, 2, "/done"]] as const) {
        expect(yield* telegram(senderUpdate(sender, id, { text }))).toEqual({ status: 200, body: "" })
        // Alice's call is under way before Bob closes his session.
        if (sender === 100000001 && text === "/done") yield* eventually(fake.requests, (requests) => requests.length === 1)
      }
      const chats = (calls: ReadonlyArray<{ readonly method: string; readonly body: unknown }>) =>
        calls.filter((c) => c.method === "sendMessage").map((c) => String((c.body as { chat_id: unknown }).chat_id))
      expect(chats(yield* eventually(telegramCalls, (calls) => chats(calls).length === 1))).toEqual(["100000002"])
      expect(chats(yield* eventually(telegramCalls, (calls) => chats(calls).length === 2))).toEqual(["100000002", "100000001"])
    }).pipe(Effect.scoped, Effect.provide(layerOver(fakeAnthropicModel("sk-test")))), 60_000)
})
