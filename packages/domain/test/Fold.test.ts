import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { fold, foldedRanges, holdsFolded } from "../src/Fold.js"

describe("folding text for search", () => {
  it("takes case and accents off, composed or not, and leaves letters that are not accented as they are", () => {
    expect(["João", "REUNIÃO", "Zoë", "Cafe\u0301", "naïve résumé", "Łódź", "Straße", "Ελλάδα", "東京"].map(fold))
      .toEqual(["joao", "reuniao", "zoe", "cafe", "naive resume", "łodz", "straße", "ελλαδα", "東京"])
  })

  it("a name holds a query when their folded forms do; an empty query matches every name", () => {
    expect([holdsFolded("João Silva", "joao"), holdsFolded("Joao Silva", "João"), holdsFolded("Ana", ""), holdsFolded("Ana", "Anaïs")])
      .toEqual([true, true, true, false])
  })

  it("for any text, folding twice is folding once, and the text holds every piece of itself", () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom("a", "E", "é", "e\u0301", "Ø", "ñ", " ", "ß", "İ") }), fc.nat(), (text, at) => {
      expect(fold(fold(text))).toBe(fold(text))
      const start = text.length === 0 ? 0 : at % text.length
      // Slicing inside a decomposed letter leaves a lone accent, which folds away too.
      expect(holdsFolded(text, text.slice(start).trim())).toBe(true)
    }))
  })
})

describe("where a search's words are in the text as sent", () => {
  const marked = (text: string, query: string) => foldedRanges(text, query).map(([start, end]) => text.slice(start, end))

  it("marks the words found whatever their case and accents, composed or not, with the accents that follow", () => {
    expect([
      marked("Reunião com o João às 9h", "reuniao joao"),
      marked("Cafe\u0301 and CAFÉ, café", "cafe"),
      marked("Zoë 👩‍👧 zoe", "ZOE"),
      marked("aaaa", "aa a"),
      marked("nothing here", "porto")
    ]).toEqual([
      ["Reunião", "João"],
      ["Cafe\u0301", "CAFÉ", "café"],
      ["Zoë", "zoe"],
      ["aaaa"],
      []
    ])
  })

  it("for any text and query, the ranges are in order, apart, within the text, and each folds to hold a word", () => {
    const unit = fc.constantFrom("a", "E", "é", "e\u0301", "ñ", " ", "👩", "İ")
    fc.assert(fc.property(fc.string({ unit }), fc.string({ unit, maxLength: 4 }), (text, query) => {
      const ranges = foldedRanges(text, query)
      const words = query.split(/\s+/).map(fold).filter((w) => w !== "")
      ranges.forEach(([start, end], i) => {
        expect(0 <= start && start < end && end <= text.length && (i === 0 || ranges[i - 1]![1] < start)).toBe(true)
        expect(words.some((w) => fold(text.slice(start, end)).includes(w))).toBe(true)
      })
    }))
  })
})
