/**
 * The search page: each hit says who a forwarded message came from, the note it is in and whom
 * that note is about, and marks the words found in the text as sent, whatever their accents.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { aliceUpdate, api, telegram } from "../harness.js"
import { unescapeHtml } from "../unescapeHtml.js"
import { alice, cookieOf, fetchWith, history, layerFor } from "./SubjectAccessFixture.js"

/** Each hit's lines as a reader sees them, marked words in [brackets]. */
const hits = (body: string) =>
  [...body.matchAll(/<li data-hit>([\s\S]*?)<\/li>/g)].map((m) =>
    m[1]!.split(/<\/p>|<\/div>/).map((line) => unescapeHtml(line.replace(/<mark>/g, "[").replace(/<\/mark>/g, "]").replace(/<[^>]+>/g, "")).trim()).filter((l) => l !== "")
  )

describe("search hits", () => {
  it.effect("name the note's person and who a message was forwarded from, and mark the words as sent", () =>
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
      const found = (yield* api("/api/search?q=reuniao")).json as { hits: ReadonlyArray<Record<string, unknown>> }
      expect(found.hits.map((h) => [h["text"], h["forwardedFrom"], h["noteId"], h["person"]])).toEqual([["Reunião com a Ana às 9h", "Carol", null, null]])
    }).pipe(Effect.provide(layerFor("all"))), 60_000)
})
