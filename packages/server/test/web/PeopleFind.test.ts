/** The people page's Find: a name found with or without its accents, in any case; the stored name shown as it is. */
import { describe, expect, it } from "@effect/vitest"
import { PersonId } from "@verbatim/domain/Ids"
import { Effect } from "effect"
import { emptyPlan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { client } from "../apiClient.js"
import { aliceUpdate, closeIdle, telegram } from "../harness.js"
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

  it.effect("a name is found whoever the list leaves out", () =>
    Effect.gen(function*() {
      for (const [i, name] of names.entries()) {
        expect(yield* telegram(aliceUpdate(100 + i, { text: `A word about ${name}` }))).toEqual({ status: 200, body: "" })
      }
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      const own = yield* cookieOf(alice)
      const listed = (q: string) =>
        Effect.map(fetchWith(own, `/?q=${encodeURIComponent(q)}`), (page) => [...page.body.matchAll(/<a href="\/people\/[^"]+">([^<]*)<\/a>/g)].map((m) => m[1]!))
      const everyone = yield* listed("")
      expect(everyone).toEqual(names.slice(1).reverse())
      expect(yield* listed("zoe")).toEqual(["Zoë Old"])
      expect(yield* listed("person 00")).toEqual(["Person 009", "Person 008", "Person 007", "Person 006", "Person 005", "Person 004", "Person 003", "Person 002", "Person 001"])
    }).pipe(Effect.provide(layerFor("all", [planStep(plan)]))), 120_000)
})
