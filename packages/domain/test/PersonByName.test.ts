import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { fold } from "../src/Fold.js"
import { personByName } from "../src/People/ByName.js"

const people = [
  { id: "p1", name: "João Silva" },
  { id: "p2", name: "Ana" },
  { id: "p3", name: "Ána" },
  { id: "p4", name: "Zoë  Kim" },
  { id: "p5", name: "Lea" },
  { id: "p6", name: "Léa" }
]

describe("a person chosen by a typed name", () => {
  it("finds the one so named whatever the case, accents and spacing, the name as written first; says when none or several are", () => {
    expect([" joao silva ", "ZOE KIM", "ana", "ÁNA", "LÉA", "lea", "Anaïs", "Silva", "", "   "].map((typed) => personByName(people, typed))).toEqual([
      { _tag: "One", id: "p1", name: "João Silva" },
      { _tag: "One", id: "p4", name: "Zoë  Kim" },
      { _tag: "One", id: "p2", name: "Ana" },
      { _tag: "One", id: "p3", name: "Ána" },
      { _tag: "One", id: "p6", name: "Léa" },
      { _tag: "One", id: "p5", name: "Lea" },
      { _tag: "None" },
      { _tag: "None" },
      { _tag: "None" },
      { _tag: "None" }
    ])
    expect(personByName([{ id: "p2", name: "Ána" }, { id: "p3", name: "Anà" }], "ana")).toEqual({ _tag: "Several", count: 2 })
  })

  it("for any people, a name typed as one of them was written finds them, or says how many share it", () => {
    const name = fc.string({ unit: fc.constantFrom("a", "Á", "b", " ", "ß", "e\u0301"), minLength: 1, maxLength: 6 })
    fc.assert(fc.property(fc.array(name, { minLength: 1, maxLength: 8 }), fc.nat(), (names, at) => {
      const listed = names.map((n, i) => ({ id: i, name: n }))
      const chosen = listed[at % listed.length]!
      const found = personByName(listed, chosen.name)
      // Named as written, case and spaces aside; failing one such, with accents aside too.
      const key = (folded: boolean, name: string) => (folded ? fold(name) : name.toLowerCase()).split(/\s+/).join(" ").trim()
      const alike = (folded: boolean) => listed.filter((p) => key(folded, p.name) === key(folded, chosen.name))
      const same = alike(false).length === 1 ? alike(false) : alike(true)
      if (chosen.name.trim() === "") expect(found).toEqual({ _tag: "None" })
      else if (same.length === 1) expect(found).toEqual({ _tag: "One", id: chosen.id, name: chosen.name })
      else expect(found).toEqual({ _tag: "Several", count: same.length })
      expect(same).toContainEqual(chosen)
    }))
  })
})
