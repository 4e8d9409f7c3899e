/** Full-text search over message text, run against every backend: the same query finds the same messages. */
import { expect, it } from "@effect/vitest"
import { attachment } from "@verbatim/domain/Attachment"
import type { Event } from "@verbatim/domain/Events"
import { MessageId, UserId } from "@verbatim/domain/Ids"
import { rebuild } from "@verbatim/projections/Projections/Rebuild"
import { Notebook } from "@verbatim/projections/Notebook"
import { pgWalk } from "@verbatim/projections/Queries/Search"
import type { Services } from "@verbatim/projections/Store"
import * as G from "@verbatim/testkit/Given"
import { Effect } from "effect"
import type { Layer } from "effect"

const bob = UserId.make("telegram:100000002")

/** A received message as sent by Bob, received `seconds` in (after Ana's, as the log records it). */
const fromBob = (event: Event, seconds: number): Event =>
  event._tag === "MessageReceived" ? { ...event, message: { ...event.message, sender: bob, receivedAt: G.at(seconds) } } : event

const found = (query: string, user?: UserId) =>
  Effect.flatMap(Notebook, (read) => read.search(query, { user, limit: 20 })).pipe(
    Effect.map((page) => page.hits.map((h) => [h.messageId, h.noteId, h.text]))
  )

/** Register the suite for one backend; each test gets a fresh database. */
export const searchConformance = (layer: () => Layer.Layer<Services, unknown>) => {
  it.effect("finds messages by every word, case folded, with their note; a transcript is found too; another user's never", () =>
    Effect.gen(function*() {
      yield* G.given(
        [G.sessionStream("s"), [
          G.sessionOpened("s"),
          G.messageReceived("s", 1, "Ana moved to Porto in May."),
          G.messageReceived("s", 2, "Her café is near the river"),
          G.messageReceived("s", 3, "", { kind: "media-without-text", attachments: [attachment("voice", "v-3", { duration: 4 })] }),
          G.mediaFetched("s", 3, 0, "b".repeat(64), 610),
          G.mediaTranscribed("s", 3, 0, "Porto again next spring", 620),
          G.sessionClosed("s", 3),
          G.planProduced("s", "plan-s", 3),
          G.noteRecorded("s", "note-s", [1, 2], { planId: "plan-s" })
        ]],
        [G.sessionStream("other"), [G.sessionOpened("other"), fromBob(G.messageReceived("other", 1, "Tom moved to Porto too."), 10)]]
      )
      expect(yield* found("porto", G.user)).toEqual([
        ["s/3", null, "🎤 Porto again next spring"],
        ["s/1", "note-s", "Ana moved to Porto in May."]
      ])
      expect(yield* found("PORTO may", G.user)).toEqual([["s/1", "note-s", "Ana moved to Porto in May."]])
      expect(yield* found("café", G.user)).toEqual([["s/2", "note-s", "Her café is near the river"]])
      expect(yield* found("\"OR near", G.user)).toEqual([])
      expect(yield* found("   ")).toEqual([])
      expect(yield* found("tom", bob)).toEqual([["other/1", null, "Tom moved to Porto too."]])
      expect(yield* found("porto")).toEqual([
        ["other/1", null, "Tom moved to Porto too."],
        ["s/3", null, "🎤 Porto again next spring"],
        ["s/1", "note-s", "Ana moved to Porto in May."]
      ])
    }).pipe(Effect.provide(layer())))

  it.effect("accents are folded both ways, in Latin scripts and composed or not; the text found is as sent; a rebuild finds the same", () =>
    Effect.gen(function*() {
      yield* G.given([G.sessionStream("a"), [
        G.sessionOpened("a"),
        G.messageReceived("a", 1, "Reunião com o João às 9h"),
        G.messageReceived("a", 2, "Zoë's naïve résumé"),
        // "é" as "e" and a combining acute accent (NFD), as some keyboards send it.
        G.messageReceived("a", 3, "Cafe\u0301 with Łukasz"),
        G.messageReceived("a", 4, "Reuniao sem acentos")
      ]])
      const ids = (query: string) => Effect.map(found(query), (hits) => hits.map((h) => h[0]))
      const queries = ["reuniao", "JOAO", "as 9h", "zoe resume naive", "café", "cafe", "reunião sem"]
      const expected = [["a/4", "a/1"], ["a/1"], ["a/1"], ["a/2"], ["a/3"], ["a/3"], ["a/4"]]
      expect(yield* Effect.forEach(queries, ids)).toEqual(expected)
      expect(yield* found("joao")).toEqual([["a/1", null, "Reunião com o João às 9h"]])
      yield* rebuild()
      expect(yield* Effect.forEach(queries, ids)).toEqual(expected)
    }).pipe(Effect.provide(layer())))

  it.effect("an edit moves a message in the index; a rebuild from the log finds the same", () =>
    Effect.gen(function*() {
      yield* G.given([G.sessionStream("e"), [
        G.sessionOpened("e"),
        G.messageReceived("e", 1, "Meet Ana at the bakery."),
        G.messageEdited("e", 1, "Meet Ana at the library.", 30)
      ]])
      expect([yield* found("bakery"), yield* found("library")]).toEqual([[], [["e/1", null, "Meet Ana at the library."]]])
      yield* rebuild()
      expect([yield* found("bakery"), yield* found("library")]).toEqual([[], [["e/1", null, "Meet Ana at the library."]]])
      // The rebuild wrote the index whole and put its triggers back: what follows is indexed as it comes.
      yield* G.given([G.sessionStream("e"), [G.messageReceived("e", 2, "Ana prefers the bakery.")]])
      yield* G.given([G.sessionStream("e"), [G.messageEdited("e", 1, "Meet Ana at the station.", 40)]])
      expect([yield* found("bakery"), yield* found("library"), yield* found("station")]).toEqual([
        [["e/2", null, "Ana prefers the bakery."]],
        [],
        [["e/1", null, "Meet Ana at the station."]]
      ])
    }).pipe(Effect.provide(layer())))

  it.effect("a rebuild that fails leaves the index and its triggers as they were", () =>
    Effect.gen(function*() {
      yield* G.given([G.sessionStream("f"), [
        G.sessionOpened("f"),
        G.messageReceived("f", 1, "Ana moved to Porto."),
        G.messageReceived("f", 2, "Tom moved to Braga.")
      ]])
      const failed = yield* Effect.exit(rebuild({ pageSize: 1, onPage: () => Effect.dieMessage("stopped mid-rebuild") }))
      expect(failed._tag).toBe("Failure")
      expect([yield* found("porto"), yield* found("braga")]).toEqual([
        [["f/1", null, "Ana moved to Porto."]],
        [["f/2", null, "Tom moved to Braga."]]
      ])
      yield* G.given([G.sessionStream("f"), [G.messageReceived("f", 3, "Both like Porto.")]])
      expect(yield* found("porto")).toEqual([["f/3", null, "Both like Porto."], ["f/1", null, "Ana moved to Porto."]])
    }).pipe(Effect.provide(layer())))

  it.effect("pages newest first: each page starts below the last, the last says so, and every match is listed once", () =>
    Effect.gen(function*() {
      const texts = Array.from({ length: 7 }, (_, i) => `Lyon, visit ${i + 1}`)
      yield* G.given([G.sessionStream("p"), [
        G.sessionOpened("p"),
        ...texts.map((text, i) => G.messageReceived("p", i + 1, text)),
        G.messageReceived("p", 8, "Paris only"),
        G.sessionClosed("p", 8),
        G.planProduced("p", "plan-p", 8),
        G.noteRecorded("p", "note-p", [2, 3], { planId: "plan-p" })
      ]])
      const page = (before?: MessageId) =>
        Effect.flatMap(Notebook, (read) => read.search("lyon", { user: G.user, limit: 3, before })).pipe(
          Effect.map(({ hits, next }) => ({ hits: hits.map((h) => [h.messageId, h.noteId, h.text]), next }))
        )
      const first = yield* page()
      const second = yield* page(first.next ?? undefined)
      const third = yield* page(second.next ?? undefined)
      expect([first, second, third]).toEqual([
        { hits: [["p/7", null, "Lyon, visit 7"], ["p/6", null, "Lyon, visit 6"], ["p/5", null, "Lyon, visit 5"]], next: "p/5" },
        { hits: [["p/4", null, "Lyon, visit 4"], ["p/3", "note-p", "Lyon, visit 3"], ["p/2", "note-p", "Lyon, visit 2"]], next: "p/2" },
        { hits: [["p/1", null, "Lyon, visit 1"]], next: null }
      ])
      // A page below a message no one has is empty, as is one below the last match.
      expect([yield* page(MessageId.make("no/such")), yield* page(MessageId.make("p/1"))]).toEqual([{ hits: [], next: null }, { hits: [], next: null }])
    }).pipe(Effect.provide(layer())))

  it.effect("a word only older messages hold is found past the newest messages a search reads first, in the same order", () =>
    Effect.gen(function*() {
      // More messages than PostgreSQL's search reads newest first before it asks the index for every match.
      const count = pgWalk + 30
      const text = (seq: number) => (seq <= 5 || seq > count - 2 ? `Lyon, visit ${seq}` : `Visit ${seq} elsewhere`)
      yield* G.given([G.sessionStream("w"), [
        G.sessionOpened("w"),
        ...Array.from({ length: count }, (_, i) => G.messageReceived("w", i + 1, text(i + 1)))
      ]])
      const page = (query: string, before?: MessageId) =>
        Effect.flatMap(Notebook, (read) => read.search(query, { user: G.user, limit: 3, before })).pipe(
          Effect.map(({ hits, next }) => ({ hits: hits.map((h) => h.text), next }))
        )
      const first = yield* page("lyon")
      const second = yield* page("lyon", first.next ?? undefined)
      const third = yield* page("lyon", second.next ?? undefined)
      expect([first, second, third]).toEqual([
        { hits: [`Lyon, visit ${count}`, `Lyon, visit ${count - 1}`, "Lyon, visit 5"], next: "w/5" },
        { hits: ["Lyon, visit 4", "Lyon, visit 3", "Lyon, visit 2"], next: "w/2" },
        { hits: ["Lyon, visit 1"], next: null }
      ])
      expect(yield* page("visit")).toEqual({
        hits: [`Lyon, visit ${count}`, `Lyon, visit ${count - 1}`, `Visit ${count - 2} elsewhere`],
        next: `w/${count - 2}`
      })
    }).pipe(Effect.provide(layer())))
}
