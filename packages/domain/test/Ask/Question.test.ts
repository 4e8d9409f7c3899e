/** A question asked of one's notes: whether it is taken, and the words of it worth searching for. */
import { describe, expect, it } from "@effect/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import fc from "fast-check"
import { maxQuestionLength, maxTerms, questionProblem, questionTerms } from "../../src/Ask/Question.js"

describe("questionProblem", () => {
  it("refuses a question of no words, and one longer than maxQuestionLength; takes one exactly that long", () => {
    expect(maxQuestionLength).toBe(2_000)
    expect([
      questionProblem(""),
      questionProblem(" "),
      questionProblem(" \n\t\u00a0 "),
      questionProblem(" ".repeat(maxQuestionLength + 1)),
      questionProblem("?"),
      questionProblem("what do I know about Ana?"),
      questionProblem("a".repeat(maxQuestionLength - 1)),
      questionProblem("a".repeat(maxQuestionLength)),
      questionProblem(`${" ".repeat(maxQuestionLength - 1)}a`),
      questionProblem("a".repeat(maxQuestionLength + 1)),
      questionProblem(`${"a".repeat(maxQuestionLength)} `),
      questionProblem("a".repeat(10 * maxQuestionLength))
    ]).toEqual([
      "empty",
      "empty",
      "empty",
      "empty",
      null,
      null,
      null,
      null,
      null,
      "too-long",
      "too-long",
      "too-long"
    ])
  })
})

describe("questionTerms", () => {
  it("keeps the words that name, not the words that ask, in English, Portuguese and German", () => {
    expect(questionTerms("what do I know about Ana?")).toEqual(["ana"])
    expect(questionTerms("o que o Tomás disse sobre o apartamento?")).toEqual(["apartamento", "tomás"])
    expect(questionTerms("Was hat Jürgen über die Wohnung gesagt?")).toEqual(["wohnung", "jürgen", "gesagt"])
    expect(questionTerms("what did she say about it?")).toEqual([])
    expect(questionTerms("")).toEqual([])
    expect(questionTerms("?! … 👍")).toEqual([])
  })

  it("splits on anything but letters and digits, folds case and keeps accents", () => {
    expect(questionTerms("ANA'S flat-share on Rua AUGUSTA, nr 12?")).toEqual(["augusta", "share", "flat", "ana", "rua", "nr", "12"])
    expect(questionTerms("Ana e Ána e ANA")).toEqual(["ana", "ána"])
  })

  it("puts the longest first, and words of one length in the order the question has them", () => {
    expect(questionTerms("rent Lisbon Ana apartment")).toEqual(["apartment", "lisbon", "rent", "ana"])
    expect(questionTerms("Tom Bob Ana")).toEqual(["tom", "bob", "ana"])
  })

  it("searches for each word once, whatever its case", () => {
    expect(questionTerms("Ana ana ANA Lisbon ana lisbon")).toEqual(["lisbon", "ana"])
  })

  it("drops single letters and single digits, and keeps two", () => {
    expect(questionTerms("x y z é 5 Ana 42 Jo")).toEqual(["ana", "42", "jo"])
  })

  it("takes at most maxTerms words, the longest", () => {
    expect(maxTerms).toBe(8)
    expect(questionTerms("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo"))
      .toEqual(["charlie", "foxtrot", "juliet", "alpha", "bravo", "delta", "hotel", "india"])
  })

  it("property: at most maxTerms distinct folded words of the question, of two characters or more, longest first", () => {
    const word = fc.oneof(
      fc.constantFrom("Ana", "ana", "Tomás", "what", "o", "sobre", "Jürgen", "x", "42", "apartamento", "👍", "e\u0301", "Ω"),
      fc.string({ unit: "grapheme", maxLength: 8 })
    )
    const question = fc.array(fc.tuple(word, fc.constantFrom(" ", "? ", ", ", "\n", "-", "")), { maxLength: 30 })
      .map((parts) => parts.map(([w, gap]) => w + gap).join(""))
    fc.assert(
      fc.property(question, (q) => {
        const terms = questionTerms(q)
        const folded = q.normalize("NFC").toLowerCase()
        const words = new Set(folded.match(/[\p{L}\p{N}]+/gu) ?? [])
        expect({
          many: terms.length <= maxTerms,
          distinct: new Set(terms).size === terms.length,
          words: terms.every((t) => words.has(t)),
          long: terms.every((t) => [...t].length >= 2),
          ordered: terms.every((t, i) => i === 0 || terms[i - 1]!.length >= t.length)
        }).toEqual({ many: true, distinct: true, words: true, long: true, ordered: true })
      }),
      { numRuns: propertyRuns(1_000) }
    )
  })
})
