/**
 * Merging from the pages without a browser: the form starts with no one chosen, choosing no one
 * changes nothing, choosing asks first (the confirmation, word for word), only the confirmation
 * merges, and the Undo it offers gives the person back their notes.
 */
import { describe, expect, it } from "@effect/vitest"
import { rebuildAndVerify } from "@verbatim/projections/Projections/Rebuild"
import { Effect } from "effect"
import { notesOf } from "../apiClient.js"
import { apiToken, eventLog, Harness } from "../harness.js"
import { filed, planned } from "./MergeFixture.js"

/** The part of `page` from the first match of `start` to the end of the element `end` closes. */
const cut = (page: string, start: string, end: string) => {
  const from = page.indexOf(start)
  return from < 0 ? "" : page.slice(from, page.indexOf(end, from) + end.length)
}

const bodies = (personId: string) => Effect.map(notesOf(personId), (notes) => notes.items.map((n) => n.body))

describe("merge forms", () => {
  it.effect("no one is chosen at first; choosing asks to confirm; the confirmation merges; Undo gives Anna back her note", () =>
    Effect.gen(function*() {
      yield* filed
      const { baseUrl } = yield* Harness
      const before = yield* eventLog
      const session = yield* Effect.promise(async () => {
        const signIn = await fetch(`${baseUrl}/signin`, { method: "POST", body: new URLSearchParams({ token: apiToken }), redirect: "manual" })
        return (signIn.headers.get("set-cookie") ?? "").split(";")[0]!
      })
      const get = (path: string) =>
        Effect.promise(async () => {
          const reply = await fetch(`${baseUrl}${path}`, { headers: { cookie: session } })
          return { status: reply.status, page: (await reply.text()).replace(/name="csrf" value="[^"]+"/g, "name=\"csrf\" value=\"T\"") }
        })
      const csrf = /name="csrf" value="([^"]+)"/.exec(yield* Effect.promise(() => fetch(`${baseUrl}/people/person_2`, { headers: { cookie: session } }).then((r) => r.text())))?.[1] ?? ""
      const post = (path: string, fields: Record<string, string>) =>
        Effect.promise(async () => {
          const reply = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { cookie: session }, body: new URLSearchParams({ csrf, ...fields }), redirect: "manual" })
          return [reply.status, decodeURIComponent(reply.headers.get("location") ?? "")]
        })

      const anna = yield* get("/people/person_2")
      expect(cut(anna.page, "<form method=\"post\" action=\"/people/person_2/merge\"", "</form>")).toBe(
        `<form method="post" action="/people/person_2/merge" class="curate" data-form="merge"><input type="hidden" name="csrf" value="T">
<label for="merge-into">Same person as</label>
<select id="merge-into" name="into"><option value="" selected>Choose a person&hellip;</option><option value="person_3">Tom</option><option value="person_1">Ana</option></select>
<label for="merge-name">or type their name</label>
<input id="merge-name" name="name" autocomplete="off">
<button type="submit">Merge&hellip;</button>
</form>`
      )
      expect(yield* post("/people/person_2/merge", { into: "" })).toEqual([303, "/people/person_2?notice=Nothing changed: choose the person they are the same as."])
      expect(yield* post("/people/person_2/merge", { into: "person_1" })).toEqual([303, "/people/person_2/merge?into=person_1"])
      expect(yield* eventLog).toEqual(before)

      const confirm = yield* get("/people/person_2/merge?into=person_1")
      expect([confirm.status, cut(confirm.page, "<h1>", "</form>")]).toEqual([200, `<h1>Merge Anna (1 note) into Ana (2 notes)?</h1>
<p data-merging>Anna&#39;s notes will be filed under Ana, and a message that names Anna later will be too. You can undo it from Ana&#39;s page: Anna gets back the notes that were theirs.</p>
<form method="post" action="/people/person_2/merge" class="curate" data-form="confirm-merge"><input type="hidden" name="csrf" value="T">
<input type="hidden" name="into" value="person_1"><input type="hidden" name="confirmed" value="yes">
<button type="submit">Merge Anna into Ana</button>
<a href="/people/person_2">Cancel</a>
</form>`])
      // Nobody to merge into, or oneself, or someone of nobody's: nothing to confirm.
      expect([(yield* get("/people/person_2/merge")).status, (yield* get("/people/person_2/merge?into=person_2")).status, (yield* get("/people/person_2/merge?into=person_9")).status])
        .toEqual([404, 404, 404])
      expect(yield* eventLog).toEqual(before)

      expect(yield* post("/people/person_2/merge", { into: "person_1", confirmed: "yes" }))
        .toEqual([303, "/people/person_1?undo=person_2&notice=Merged: their notes are here now."])
      expect(yield* bodies("person_1")).toEqual(["Ana moved to Porto.", "Ana's sister is a nurse.", "Anna has a new dog."])
      const ana = yield* get("/people/person_1?undo=person_2&notice=Merged: their notes are here now.")
      expect(cut(ana.page, "<div role=\"status\"", "</div>")).toBe(
        `<div role="status" class="notice undoable">Merged: their notes are here now. <form method="post" action="/people/person_2/unmerge" class="curate undo" data-form="unmerge"><input type="hidden" name="csrf" value="T"><button type="submit" aria-label="Undo the merge of Anna">Undo</button></form></div>`
      )
      expect(cut(ana.page, "<h2>Merged into Ana</h2>", "</ul>")).toBe(`<h2>Merged into Ana</h2>
<ul class="list merged" data-merged-in><li>Anna <form method="post" action="/people/person_2/unmerge" class="curate undo" data-form="unmerge"><input type="hidden" name="csrf" value="T"><button type="submit" aria-label="Undo the merge of Anna">Undo</button></form></li></ul>`)
      // A merged person's confirmation is nothing to confirm any more.
      expect((yield* get("/people/person_2/merge?into=person_1")).status).toBe(404)

      expect(yield* post("/people/person_2/unmerge", {})).toEqual([303, "/people/person_2?notice=Merge undone: the notes that were theirs are back here."])
      expect([yield* bodies("person_2"), yield* bodies("person_1")])
        .toEqual([["Anna has a new dog."], ["Ana moved to Porto.", "Ana's sister is a nurse."]])
      expect(cut((yield* get("/people/person_1")).page, "<h2>Merged into", "</ul>")).toBe("")
      expect(yield* post("/people/person_2/unmerge", {})).toEqual([303, "/people/person_2?notice=Nothing changed: Anna is not merged into anyone."])
      expect(yield* post("/people/person_9/unmerge", {})).toEqual([404, ""])
      expect((yield* eventLog).slice(before.length)).toEqual(["people-telegram:100000001#1 PeopleMerged", "people-telegram:100000001#2 PeopleUnmerged"])
      expect((yield* rebuildAndVerify).differing).toEqual([])
    }).pipe(Effect.provide(planned)))
})
