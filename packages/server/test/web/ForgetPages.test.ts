/**
 * The confirmations that come before a forgetting, over real HTTP: the way to each from the note,
 * person and session pages; what each says will be gone, whole, for a note, a person (merged and
 * renamed) and a voice message; that asking changes nothing; another user's are 404s; and what the
 * operator is shown under `none` (the counts, no text) and `audited` (the text, the read recorded).
 */
import { describe, expect, it } from "@effect/vitest"
import { notReadMessage } from "@verbatim/domain/OperatorReads/Mode"
import { Effect } from "effect"
import { eventLog } from "../harness.js"
import { operatorReads } from "../operatorReadsFixture.js"
import { mainText } from "../unescapeHtml.js"
import { bob, message, postForm, session, tokenOf } from "./ForgetFixture.js"
import { alice, cookieOf, fetchWith, history, layerFor } from "./SubjectAccessFixture.js"

const forever = "It cannot be undone. Backups taken before keep them."
const operatorRefused = `Not shown to the operator: ${notReadMessage}`

describe("the confirmation before a forgetting", () => {
  it.effect("each page leads to one; each says what will be gone and shows the text going; asking forgets nothing", () =>
    Effect.gen(function*() {
      yield* history
      const own = yield* cookieOf(alice)
      const before = yield* eventLog
      const note = yield* fetchWith(own, "/notes/note_1")
      expect(/<p class="curate forget" data-forget>[\s\S]*?<\/p>/.exec(note.body)?.[0]).toBe(`<p class="curate forget" data-forget><a href="/notes/note_1/forget">Forget this note</a>
<span class="muted">Unlike discarding, forgetting erases its words for good, everywhere.</span></p>`)
      const person = yield* fetchWith(own, "/people/person_1")
      expect(/<section data-forget>[\s\S]*?<\/section>/.exec(person.body)?.[0]).toBe(`<section data-forget>
<h2>Forget Ana Lima</h2>
<p class="muted">Erase the words of every note filed under Ana Lima, and Ana Lima's names, for good.</p>
<p><a href="/people/person_1/forget">Forget Ana Lima&hellip;</a></p>
</section>`)
      const sessionPage = yield* fetchWith(own, `/sessions/${session}`)
      expect([...sessionPage.body.matchAll(/<a class="quiet" href="([^"]+)" data-forget>Forget this message<\/a>/g)].map((m) => m[1]))
        .toEqual([1, 2, 3, 4, 5, 6].map((seq) => `/messages/${encodeURIComponent(message(seq))}/forget`))

      const confirmations = []
      for (const path of ["/notes/note_1/forget", "/notes/note_3/forget", "/people/person_1/forget", `/messages/${message(3)}/forget`, `/messages/${message(2)}/forget`]) {
        const page = yield* fetchWith(own, path)
        confirmations.push([page.status, mainText(page.body)])
      }
      expect(confirmations).toEqual([
        [200, `Forget this note about Ana Lima? This erases the words of 2 messages in 1 conversation, and with them this note, the instruction cut from them and the words of the reminder they set. ${forever} The note Ana moved to Porto in June. She starts at the clinic on Monday Forget this note No, keep it`],
        [200, `Forget this note about Ana Lima? This erases the words of 1 message in 1 conversation, and with them this note (discarded, and kept until now). ${forever} The note Ana owes me 20 euros. Forget this note No, keep it`],
        // A person: the count and the names, every one they had or took in, not the notes.
        [200, `Forget Ana Lima? This erases the words of 6 messages in 1 conversation, every note filed under Ana Lima (5 notes, 1 of them discarded) and Ana Lima's names (also Ana Souza, an earlier name; Annie, merged into Ana Lima). ${forever} Forget Ana Lima No, keep it`],
        [200, `Forget message 3 of this conversation? This erases its words and the attachment it carried from this conversation, where it will read “erased”, and the note about Ana Lima that holds it, made of it alone, goes with it. ${forever} What will be gone 🎤 She has a cat called Miso. Forget this message No, keep it`],
        [200, `Forget message 2 of this conversation? This erases its words from this conversation, where it will read “erased”, and from the note about Ana Lima that holds it, which keeps its other message. ${forever} What will be gone She starts at the clinic on Monday, remind me on Sunday Forget this message No, keep it`]
      ])
      const form = yield* fetchWith(own, "/notes/note_1/forget")
      expect(/<form method="post"[^>]*data-form="forget">/.exec(form.body)?.[0]).toBe(`<form method="post" action="/notes/note_1/forget" class="curate forget" data-form="forget">`)
      // Annie's old address asks about whom she joined.
      expect(yield* fetchWith(own, "/people/person_2/forget")).toEqual({ status: 303, headers: { location: "/people/person_1/forget" }, body: "" })
      expect(yield* eventLog).toEqual(before)
    }).pipe(Effect.provide(layerFor("all"))), 60_000)

  it.effect("another user's note, person and message are 404s, to ask about and to forget, and nothing is forgotten", () =>
    Effect.gen(function*() {
      yield* history
      const other = yield* cookieOf(bob)
      const token = tokenOf((yield* fetchWith(other, "/")).body)
      const before = yield* eventLog
      const seen = []
      for (const path of ["/notes/note_1/forget", "/people/person_1/forget", `/messages/${message(1)}/forget`]) {
        const page = yield* fetchWith(other, path)
        const posted = yield* postForm(other, path, { csrf: token })
        seen.push([page.status, mainText(page.body), posted.status, posted.body])
      }
      expect(seen).toEqual([
        [404, "Not found No such note.", 404, "Not found"],
        [404, "Not found No such person.", 404, "Not found"],
        [404, "Not found No such message.", 404, "Not found"]
      ])
      expect(yield* eventLog).toEqual(before)
    }).pipe(Effect.provide(layerFor("all"))), 60_000)

  it.effect("none: the operator is told the counts, never the text or names, and may still forget", () =>
    Effect.gen(function*() {
      yield* history
      const operator = yield* cookieOf("operator")
      const seen = []
      for (const path of ["/notes/note_1/forget", "/people/person_1/forget", `/messages/${message(4)}/forget`]) {
        const page = yield* fetchWith(operator, path)
        seen.push([page.status, mainText(page.body)])
      }
      expect(seen).toEqual([
        [200, `Forget this note of ${alice}? This erases the words of 2 messages in 1 conversation, and with them this note, the instruction cut from them and the words of the reminder they set. ${forever} ${operatorRefused} Forget this note No, keep it`],
        [200, `Forget a person of ${alice}? This erases the words of 6 messages in 1 conversation, every note filed under them (5 notes, 1 of them discarded) and their 3 names. ${forever} ${operatorRefused} Forget this person No, keep it`],
        [200, `Forget message 4 of this conversation? This erases its words from this conversation, where it will read “erased”, and the note that holds it, made of it alone, goes with it. ${forever} ${operatorRefused} Forget this message No, keep it`]
      ])
      const forgot = yield* postForm(operator, "/notes/note_1/forget", { csrf: tokenOf((yield* fetchWith(operator, "/notes/note_1/forget")).body) })
      // To the session, where its messages read erased: the person page would be refused.
      const notice = "Forgotten: a note, the words of 2 messages in 1 conversation."
      expect([forgot.status, forgot.location]).toEqual([303, `/sessions/${session}?notice=${encodeURIComponent(notice)}`])
      const landed = yield* fetchWith(operator, forgot.location!)
      expect([landed.status, /<p role="status" class="notice">([^<]*)<\/p>/.exec(landed.body)?.[1], [...landed.body.matchAll(/data-disposition="(\w+)"/g)].map((m) => m[1])])
        .toEqual([200, notice, ["Erased", "Erased", "InNote", "InNote", "Discarded", "InNote"]])
      expect(yield* operatorReads).toEqual([])
    }).pipe(Effect.provide(layerFor("none"))), 60_000)

  it.effect("audited: the operator sees the text going, and each confirmation is a read of Alice's", () =>
    Effect.gen(function*() {
      yield* history
      const operator = yield* cookieOf("operator")
      const before = (yield* operatorReads).length
      const page = yield* fetchWith(operator, "/notes/note_2/forget")
      expect(mainText(page.body)).toBe(
        `Forget this note about Ana Lima? This erases the words of 1 message in 1 conversation, and with them this note. ${forever} The note Annie plays the cello. Forget this note No, keep it`
      )
      expect((yield* fetchWith(operator, `/messages/${message(4)}/forget`)).status).toBe(200)
      expect((yield* operatorReads).slice(before).map(({ ids, kind, route, user }) => ({ ids, kind, route, user }))).toEqual([
        { ids: ["note_2"], kind: "note", route: "GET /notes/note_2/forget", user: alice },
        { ids: [session, message(4)], kind: "session", route: `GET /messages/${message(4)}/forget`, user: alice }
      ])
    }).pipe(Effect.provide(layerFor("audited"))), 60_000)
})
