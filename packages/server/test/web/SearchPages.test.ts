/**
 * Search a page at a time, newest first, through the API and the search page: each page starts
 * below the last one's oldest hit, the last says there is no more, and every match is listed
 * exactly once across the pages.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { searchFor } from "../apiClient.js"
import { aliceUpdate, telegram } from "../harness.js"
import { unescapeHtml } from "../unescapeHtml.js"
import { alice, cookieOf, fetchWith, layerFor } from "./SubjectAccessFixture.js"

/** Alice's 60 messages about Lyon, the oldest first, and one about Paris between them. */
const lyon = Array.from({ length: 60 }, (_, i) => `Lyon, day ${i + 1}`)

const capture = Effect.gen(function*() {
  for (const [i, text] of lyon.entries()) {
    expect(yield* telegram(aliceUpdate(100 + i, { text }))).toEqual({ status: 200, body: "" })
    if (i === 30) expect(yield* telegram(aliceUpdate(500, { text: "Paris, once" }))).toEqual({ status: 200, body: "" })
  }
})

/** The hits' texts on a search page, and where its "Older matches" link goes (null when there is none). */
const pageOf = (body: string) => ({
  hits: [...body.matchAll(/<li data-hit>[\s\S]*?<div class="body">([\s\S]*?)<\/div>/g)].map((m) => unescapeHtml(m[1]!.replace(/<[^>]+>/g, ""))),
  older: /<a href="([^"]*)" data-older>Older matches<\/a>/.exec(body)?.[1] ?? null
})

describe("search a page at a time", () => {
  it.effect("the API pages newest first below each page's last hit, every match once, and the last page says so", () =>
    Effect.gen(function*() {
      yield* capture
      const newestFirst = [...lyon].reverse()
      const first = yield* searchFor("lyon", alice, { limit: 25 })
      const second = yield* searchFor("lyon", alice, { limit: 25, before: first.next! })
      const third = yield* searchFor("lyon", alice, { limit: 25, before: second.next! })
      expect([first, second, third].map((page) => [page.hits.map((h) => h.text), page.next])).toEqual([
        [newestFirst.slice(0, 25), "telegram:100000001:135"],
        [newestFirst.slice(25, 50), "telegram:100000001:110"],
        [newestFirst.slice(50), null]
      ])
    }).pipe(Effect.provide(layerFor("all", []))), 60_000)

  it.effect("the search page shows 50 and links to the older ones, whose page ends the list", () =>
    Effect.gen(function*() {
      yield* capture
      const cookie = yield* cookieOf(alice)
      const newestFirst = [...lyon].reverse()
      const first = pageOf((yield* fetchWith(cookie, "/search?q=LYON")).body)
      const second = yield* fetchWith(cookie, unescapeHtml(first.older ?? ""))
      const below = yield* fetchWith(cookie, "/search?q=lyon&before=telegram%3A100000001%3A100")
      expect([first, pageOf(second.body)]).toEqual([
        { hits: newestFirst.slice(0, 50), older: "/search?q=LYON&amp;before=telegram%3A100000001%3A110" },
        { hits: newestFirst.slice(50), older: null }
      ])
      expect(below.body).toContain("<p class=\"muted\">No older message holds every one of those words.</p>")
    }).pipe(Effect.provide(layerFor("all", []))), 60_000)
})
