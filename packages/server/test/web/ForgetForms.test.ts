/**
 * The forgetting forms over real HTTP: a post without the page's form token, with a wrong one or
 * from another site is refused and forgets nothing; a note, a message and a person forgotten by
 * their forms, each leading to a page that says what was forgotten; then the accounting reads
 * Erased, the note is gone from its person's page, the API and the search, and its address (and a
 * forgotten person's) says it was forgotten, to its user and the operator only.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { failureOf, noteOf, peopleOf, searchFor } from "../apiClient.js"
import { eventLog } from "../harness.js"
import { mainText } from "../unescapeHtml.js"
import { bob, message, places, postForm, session, tokenOf } from "./ForgetFixture.js"
import { alice, cookieOf, fetchWith, history, layerFor } from "./SubjectAccessFixture.js"

const planned = ["1: InNote", "2: InNote, Instruction", "3: InNote", "4: InNote", "5: Discarded", "6: InNote"]

/** The bodies of the notes a person page lists, live then discarded. */
const listed = (body: string) =>
  ["live", "discarded"].map((which) =>
    [...(new RegExp(`<ul class="list" data-notes="${which}">([\\s\\S]*?)</ul>`).exec(body)?.[1] ?? "").matchAll(/<div class="body">([\s\S]*?)<\/div>/g)].map((m) => m[1]))

/** The messages the API's search finds holding `q`. */
const hitsFor = (q: string) =>
  Effect.map(searchFor(q), (found) => found.hits.map((h) => h.messageId))

/** Where a posted form led, and that page's main text. */
const followed = (cookie: string, posted: { readonly status: number; readonly location: string | null }) =>
  Effect.map(fetchWith(cookie, posted.location ?? ""), (page) => ({ status: posted.status, location: posted.location, text: mainText(page.body) }))

describe("the forgetting forms", () => {
  it.effect("without the form token, with a stale one or from another site, nothing is forgotten", () =>
    Effect.gen(function*() {
      yield* history
      const own = yield* cookieOf(alice)
      const token = tokenOf((yield* fetchWith(own, "/notes/note_1/forget")).body)
      const before = yield* eventLog
      const refused = [
        yield* postForm(own, "/notes/note_1/forget", {}),
        yield* postForm(own, "/notes/note_1/forget", { csrf: tokenOf((yield* fetchWith(yield* cookieOf(bob), "/")).body) }),
        yield* postForm(own, "/people/person_1/forget", { csrf: "" }),
        yield* postForm(own, `/messages/${message(1)}/forget`, { csrf: token }, { "sec-fetch-site": "cross-site" })
      ]
      expect(refused).toEqual([
        { status: 400, location: null, body: "Bad request: the form is incomplete or malformed" },
        { status: 403, location: null, body: "Forbidden: a stale or missing form token" },
        { status: 403, location: null, body: "Forbidden: a stale or missing form token" },
        { status: 403, location: null, body: "Forbidden: this form was sent from another site" }
      ])
      expect(yield* eventLog).toEqual(before)
      yield* noteOf("note_1")
      expect(yield* places).toEqual(planned)
    }).pipe(Effect.provide(layerFor("all"))), 60_000)

  it.effect("a note forgotten: its person's page says so without it; the API, the search and the accounting have no words of it; its page says it was forgotten", () =>
    Effect.gen(function*() {
      yield* history
      const own = yield* cookieOf(alice)
      expect(yield* hitsFor("Porto")).toEqual([message(1)])
      const token = tokenOf((yield* fetchWith(own, "/notes/note_1/forget")).body)
      const forgot = yield* postForm(own, "/notes/note_1/forget", { csrf: token })
      const notice = "Forgotten: a note, the words of 2 messages in 1 conversation."
      expect(forgot).toEqual({ status: 303, location: `/people/person_1?notice=${encodeURIComponent(notice)}`, body: "" })
      const person = yield* fetchWith(own, forgot.location!)
      expect(/<p role="status" class="notice">([^<]*)<\/p>/.exec(person.body)?.[1]).toBe(notice)
      expect(listed(person.body)).toEqual([
        ["🎤 She has a cat called Miso.", "One of them has `code` and a ```fence```:\n```\n# not a heading\n```", "Annie plays the cello."],
        ["Ana owes me 20 euros."]
      ])
      expect(yield* failureOf(noteOf("note_1"))).toEqual({ _tag: "NotFound", resource: "note", id: "note_1" })
      expect(yield* places).toEqual(["1: Erased", "2: Erased", "3: InNote", "4: InNote", "5: Discarded", "6: InNote"])
      expect(yield* hitsFor("Porto")).toEqual([])
      const gone = yield* fetchWith(own, "/notes/note_1")
      expect([gone.status, mainText(gone.body)]).toEqual([
        410,
        "This note was forgotten It was forgotten on 1 January 1970, 00:00 (UTC) at your request: its words are gone from every page, the search and the store. Backups taken before keep them. Go to your notes"
      ])
      // Anyone else is told nothing of it; a note that never was is not said to be forgotten.
      expect(mainText((yield* fetchWith(yield* cookieOf(bob), "/notes/note_1")).body)).toBe("Not found No such note.")
      expect(mainText((yield* fetchWith(own, "/notes/note_9")).body)).toBe("Not found No such note.")
      // Forgotten already: nothing left there to forget.
      expect(yield* postForm(own, "/notes/note_1/forget", { csrf: token })).toEqual({ status: 404, location: null, body: "Not found" })
    }).pipe(Effect.provide(layerFor("all"))), 60_000)

  it.effect("a message forgotten: its session reads erased and says so; the note it alone made goes; asked again, it is forgotten already", () =>
    Effect.gen(function*() {
      yield* history
      const own = yield* cookieOf(alice)
      const path = `/messages/${encodeURIComponent(message(4))}/forget`
      const forgot = yield* followed(own, yield* postForm(own, path, { csrf: tokenOf((yield* fetchWith(own, path)).body) }))
      const notice = "Forgotten: a message's words; it reads erased below."
      expect(forgot).toEqual({
        status: 303,
        location: `/sessions/${session}?notice=${encodeURIComponent(notice)}`,
        text: `Session ${session} · planned ${notice} ` +
          "seq 1 in a note about Ana Lima Forget this message Ana moved to Porto in June. " +
          "seq 2 in a note about Ana Lima Forget this message She starts at the clinic on Monday, remind me on Sunday " +
          "seq 3 in a note about Ana Lima Forget this message 🎤 She has a cat called Miso. " +
          "seq 4 erased on 1 January 1970 at your request " +
          "seq 5 discarded by the user, in a note about Ana Lima that can be restored Forget this message Ana owes me 20 euros. " +
          "seq 6 in a note about Ana Lima Forget this message One of them has `code` and a ```fence```: ``` # not a heading ``` " +
          "Plans plan_1: messages 1&ndash;6, prompt v2, scripted, 0 in / 0 out"
      })
      expect(yield* places).toEqual(["1: InNote", "2: InNote, Instruction", "3: InNote", "4: Erased", "5: Discarded", "6: InNote"])
      expect(yield* failureOf(noteOf("note_2"))).toEqual({ _tag: "NotFound", resource: "note", id: "note_2" })
      const again = yield* fetchWith(own, path)
      expect([again.status, mainText(again.body)]).toEqual([200, `Already forgotten This message was erased on 1 January 1970 at your request. Go to its conversation`])
    }).pipe(Effect.provide(layerFor("all"))), 60_000)

  it.effect("a person forgotten: the people page says what went, and no note, name or message of theirs is left", () =>
    Effect.gen(function*() {
      yield* history
      const own = yield* cookieOf(alice)
      const forgot = yield* followed(own, yield* postForm(own, "/people/person_1/forget", { csrf: tokenOf((yield* fetchWith(own, "/people/person_1/forget")).body) }))
      const notice = "Forgotten: a person and the 1 merged into them, their names and every note filed under them, the words of 6 messages in 1 conversation."
      expect(forgot).toEqual({
        status: 303,
        location: `/?notice=${encodeURIComponent(notice)}`,
        text: `People ${notice} Find Search No notes about anyone yet. Forward messages to the bot, and they appear here once filed.`
      })
      expect(yield* places).toEqual(["1: Erased", "2: Erased", "3: Erased", "4: Erased", "5: Erased", "6: Erased"])
      expect(yield* peopleOf()).toEqual({ items: [], nextCursor: null })
      // Their address says they were forgotten, to their user and the operator; to anyone else it is nothing.
      const at = "1 January 1970, 00:00 (UTC)"
      const gone = [own, yield* cookieOf("operator"), yield* cookieOf(bob)]
      const pages = yield* Effect.forEach(gone, (cookie) => Effect.map(fetchWith(cookie, "/people/person_1"), (page) => [page.status, mainText(page.body)]))
      expect(pages).toEqual([
        [410, `This person was forgotten They were forgotten on ${at} at your request: their names and the words of every note filed under them are gone from every page, the search and the store. Backups taken before keep them. Go to your notes`],
        [410, `This person was forgotten They were forgotten on ${at}: their names and the words of every note filed under them are gone from every page, the search and the store. Backups taken before keep them. Go to the people`],
        [404, "Not found No such person."]
      ])
      // So does the address of a note that went with them.
      const note = yield* fetchWith(yield* cookieOf("operator"), "/notes/note_1")
      expect([note.status, mainText(note.body)]).toEqual([
        410,
        `This note was forgotten It was forgotten on ${at}: its words are gone from every page, the search and the store. Backups taken before keep them. Go to the people`
      ])
    }).pipe(Effect.provide(layerFor("all"))), 60_000)
})
