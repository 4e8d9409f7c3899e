/**
 * Provenance in plain sight: a search hit says who a forwarded message came from, the note it is
 * in and whom that note is about, and marks the words found in the text as sent, whatever their
 * accents; the person page says whom a note's forwarded words came from.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { emptyPlan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { searchFor } from "../apiClient.js"
import { aliceUpdate, closeIdle, telegram } from "../harness.js"
import { unescapeHtml } from "../unescapeHtml.js"
import { alice, cookieOf, fetchWith, history, layerFor, plan } from "./SubjectAccessFixture.js"

/** Each hit's lines as a reader sees them, marked words in [brackets]. */
const hits = (body: string) =>
  [...body.matchAll(/<li data-hit>([\s\S]*?)<\/li>/g)].map((m) =>
    m[1]!.split(/<\/p>|<\/div>/).map((line) => unescapeHtml(line.replace(/<mark>/g, "[").replace(/<\/mark>/g, "]").replace(/<[^>]+>/g, "")).trim()).filter((l) => l !== "")
  )

describe("provenance in plain sight", () => {
  it.effect("search hits name the note's person and who a message was forwarded from, and mark the words as sent", () =>
    Effect.gen(function*() {
      yield* history
      const forwarded = aliceUpdate(7, { text: "Reunião com a Ana às 9h", forward_origin: { type: "hidden_user", sender_user_name: "Carol", date: 1767225000 } })
      expect(yield* telegram(forwarded)).toEqual({ status: 200, body: "" })
      const own = yield* cookieOf(alice)
      const page = (q: string) => Effect.map(fetchWith(own, `/search?q=${encodeURIComponent(q)}`), (p) => hits(p.body))
      expect(yield* page("reuniao ANA")).toEqual([
        ["Forwarded from Carol", "[Reunião] com a [Ana] às 9h", "in no note yet: its session"]
      ])
      expect(yield* page("porto")).toEqual([
        ["Ana moved to [Porto] in June.", "in a note about Ana Lima · all about Ana Lima"]
      ])
      const found = yield* searchFor("reuniao")
      expect(found.hits.map((h) => [h.text, h.forwardedFrom, h.noteId, h.person])).toEqual([["Reunião com a Ana às 9h", "Carol", null, null]])
    }).pipe(Effect.provide(layerFor("all"))), 60_000)

  it.effect("the person page says whom a note's forwarded words came from, each name once", () =>
    Effect.gen(function*() {
      yield* history
      const forward = (id: number, text: string, from: string) =>
        telegram(aliceUpdate(id, { text, forward_origin: { type: "hidden_user", sender_user_name: from, date: 1767225000 } }))
      yield* forward(7, "I got the job at the Porto office!!", "Carol")
      yield* forward(8, "Starting in March", "Carol")
      yield* forward(9, "Ana told me first", "Dan")
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      const page = yield* fetchWith(yield* cookieOf(alice), "/people/person_1")
      const lines = [...page.body.matchAll(/<li>(?:<p class="muted" data-forwarded>([^<]*)<\/p>)?<div class="body">([^<]*)<\/div>/g)].map((m) => [m[1] ?? null, unescapeHtml(m[2]!)])
      expect(lines).toEqual([
        ["Holds words forwarded from Carol, Dan", "I got the job at the Porto office!!\n\nStarting in March\n\nAna told me first"],
        [null, "🎤 She has a cat called Miso."],
        [null, "One of them has `code` and a ```fence```:\n```\n# not a heading\n```"],
        [null, "Annie plays the cello."],
        [null, "Ana moved to Porto in June.\n\nShe starts at the clinic on Monday"],
        // The discarded note, listed apart.
        [null, "Ana owes me 20 euros."]
      ])
    }).pipe(Effect.provide(layerFor("all", [planStep(plan), planStep({
      ...emptyPlan,
      people: [{ contactId: "person_1", name: "Ana Lima", notes: [{ sourceItemSeqs: [1, 2, 3], directives: [] }] }]
    })]))), 60_000)
})
