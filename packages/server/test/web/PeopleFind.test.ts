/** The people page's Find: a name found with or without its accents, in any case; the stored name shown as it is. */
import { describe, expect, it } from "@effect/vitest"
import { PersonId } from "@verbatim/domain/Ids"
import { Effect } from "effect"
import { client } from "../apiClient.js"
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
