/**
 * The people page's Find: a name found with or without its accents, in any case; the stored name
 * shown as it is. Among more people than the list shows, Find and the move and merge forms reach
 * the rest by name.
 */
import { describe, expect, it } from "@effect/vitest"
import { PersonId } from "@verbatim/domain/Ids"
import { Effect } from "effect"
import { emptyPlan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { client, notesOf } from "../apiClient.js"
import { aliceUpdate, closeIdle, eventLog, telegram } from "../harness.js"
import { postForm, tokenOf } from "./ForgetFixture.js"
import { alice, cookieOf, fetchWith, history, layerFor } from "./SubjectAccessFixture.js"

describe("finding a person by name", () => {
  it.effect("Anaïs is found as anais, ANAÏS and Anai\u0308s; a name that is not there finds no one", () =>
    Effect.gen(function*() {
      yield* history
      yield* client((c) => c.curation.renamePerson({ path: { id: PersonId.make("person_1") }, payload: { name: "Anaïs Lima" } }))
      const own = yield* cookieOf(alice)
      const names = (q: string) =>
        Effect.map(fetchWith(own, `/?q=${encodeURIComponent(q)}`), (page) =>
          [...page.body.matchAll(/<a href="\/people\/(person_\d+)">([^<]*)<\/a>/g)].map((m) => `${m[1]} ${m[2]}`))
      expect(yield* Effect.forEach(["anais", "ANAÏS", "Anai\u0308s lima", "lima", "Joao"], names)).toEqual([
        ["person_1 Anaïs Lima"],
        ["person_1 Anaïs Lima"],
        ["person_1 Anaïs Lima"],
        ["person_1 Anaïs Lima"],
        []
      ])
    }).pipe(Effect.provide(layerFor("all"))), 60_000)
})

describe("finding among more people than the list shows", () => {
  /** 501 people, one note each; Zoë's is the oldest, so the list of the 500 most recently active leaves her out. */
  const names = ["Zoë Old", ...Array.from({ length: 500 }, (_, i) => `Person ${String(i + 1).padStart(3, "0")}`)]
  const plan = {
    ...emptyPlan,
    people: names.map((name, i) => ({ contactId: null, name, notes: [{ sourceItemSeqs: [i + 1], directives: [] }] }))
  }

  const captured = Effect.gen(function*() {
    for (const [i, name] of names.entries()) {
      expect(yield* telegram(aliceUpdate(100 + i, { text: `A word about ${name}` }))).toEqual({ status: 200, body: "" })
    }
    expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
  })

  it.effect("a name is found whoever the list leaves out", () =>
    Effect.gen(function*() {
      yield* captured
      const own = yield* cookieOf(alice)
      const listed = (q: string) =>
        Effect.map(fetchWith(own, `/?q=${encodeURIComponent(q)}`), (page) => [...page.body.matchAll(/<a href="\/people\/[^"]+">([^<]*)<\/a>/g)].map((m) => m[1]!))
      const everyone = yield* listed("")
      expect(everyone).toEqual(names.slice(1).reverse())
      expect(yield* listed("zoe")).toEqual(["Zoë Old"])
      expect(yield* listed("person 00")).toEqual(["Person 009", "Person 008", "Person 007", "Person 006", "Person 005", "Person 004", "Person 003", "Person 002", "Person 001"])
    }).pipe(Effect.provide(layerFor("all", [planStep(plan)]))), 120_000)

  it.effect("the move and merge forms offer the 500 most active and find anyone else by the name typed; a name that finds no one, or several, changes nothing", () =>
    Effect.gen(function*() {
      yield* captured
      const own = yield* cookieOf(alice)
      const idOf = (name: string) =>
        Effect.map(fetchWith(own, `/?q=${encodeURIComponent(name)}`), (page) => /<a href="\/people\/([^"]+)">/.exec(page.body)![1]!)
      const [zoe, newest, first] = yield* Effect.all([idOf("Zoë Old"), idOf("Person 500"), idOf("Person 001")])
      const options = (body: string, select: string) =>
        [...(new RegExp(`<select id="${select}"[^>]*>([\\s\\S]*?)</select>`).exec(body)?.[1] ?? "").matchAll(/<option value="[^"]*"[^>]*>([^<]*)<\/option>/g)].map((m) => m[1]!)
      const personPage = (yield* fetchWith(own, `/people/${newest}`)).body
      const noteId = /href="\/notes\/([^"]+)"/.exec(personPage)![1]!
      const notePage = (yield* fetchWith(own, `/notes/${noteId}`)).body
      // The 499 others most recently active, newest first: Zoë, the least active, is not offered.
      const others = names.slice(1, 500).reverse()
      expect(options(personPage, "merge-into")).toEqual(["Choose a person&hellip;", ...others])
      expect(options(notePage, "move-to")).toEqual([...others, "My own notes", "Someone else, named below", "A new person, named below"])

      const csrf = tokenOf(notePage)
      const answer = (reply: { readonly status: number; readonly location: string | null }) => [reply.status, decodeURIComponent(reply.location ?? "")]
      expect(answer(yield* postForm(own, `/notes/${noteId}/move`, { csrf, to: "named", name: "  zoe   OLD " }))).toEqual([303, `/notes/${noteId}?notice=Moved.`])
      expect((yield* notesOf(zoe)).items.map((n) => n.body).sort()).toEqual(["A word about Person 500", "A word about Zoë Old"])
      expect(answer(yield* postForm(own, `/people/${first}/merge`, { csrf, into: "", name: "ZOË old" }))).toEqual([303, `/people/${first}/merge?into=${zoe}`])

      const second = PersonId.make(yield* idOf("Person 002"))
      yield* client((c) => c.curation.renamePerson({ path: { id: second }, payload: { name: "Pérson 003" } }))
      const before = yield* eventLog
      expect([
        answer(yield* postForm(own, `/notes/${noteId}/move`, { csrf, to: "named", name: "Nobody" })),
        answer(yield* postForm(own, `/notes/${noteId}/move`, { csrf, to: "named", name: " " })),
        answer(yield* postForm(own, `/people/${first}/merge`, { csrf, into: "", name: "persòn 003" })),
        answer(yield* postForm(own, `/people/${first}/merge`, { csrf, into: "", name: "Person 001" })),
        answer(yield* postForm(own, `/people/${first}/merge`, { csrf, into: "", name: "" })),
        answer(yield* postForm(own, `/people/${first}/merge`, { csrf, into: "", name: "Zoë ".repeat(100_000) }))
      ]).toEqual([
        [303, `/notes/${noteId}?notice=Nothing changed: none of the people is named “Nobody”.`],
        [303, `/notes/${noteId}?notice=Nothing changed: type the name of the person you mean.`],
        [303, `/people/${first}?notice=Nothing changed: 2 people are named “persòn 003”; choose the one you mean from the list.`],
        [303, `/people/${first}?notice=Nothing changed: none of the people is named “Person 001”.`],
        [303, `/people/${first}?notice=Nothing changed: choose the person they are the same as.`],
        [303, `/people/${first}?notice=Nothing changed: none of the people is named the name typed.`]
      ])
      expect(yield* eventLog).toEqual(before)
      // Pérson 003 and Person 003 both answer to "persòn 003" with accents aside; as written, "pérson 003" names one.
      expect(answer(yield* postForm(own, `/people/${first}/merge`, { csrf, into: "", name: "pérson 003" }))).toEqual([303, `/people/${first}/merge?into=${second}`])
      // Another user's note or person is not there for Bob, whatever the name.
      const bob = yield* cookieOf("telegram:100000002")
      const bobsToken = tokenOf((yield* fetchWith(bob, "/")).body)
      expect([
        (yield* postForm(bob, `/notes/${noteId}/move`, { csrf: bobsToken, to: "named", name: "Zoë Old" })).status,
        (yield* postForm(bob, `/people/${first}/merge`, { csrf: bobsToken, into: "", name: "Zoë Old" })).status
      ]).toEqual([404, 404])
    }).pipe(Effect.provide(layerFor("all", [planStep(plan)]))), 120_000)
})
