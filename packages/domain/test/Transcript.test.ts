import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { isSilent, type RawSegment, segmentsOf, spokenText } from "../src/Transcript.js"

const segment = (text: string, noSpeechProb: number | null, avgLogprob: number | null, start = 0): RawSegment => ({
  start,
  end: start + 2,
  text,
  noSpeechProb,
  avgLogprob
})

describe("transcripts", () => {
  it("a segment is silence only when Whisper doubts both that it is speech and its own words", () => {
    expect([
      isSilent(segment(" Thanks for watching!", 0.92, -1.4)),
      isSilent(segment(" Ana moved to Porto.", 0.92, -0.2)),
      isSilent(segment(" Ana moved to Porto.", 0.1, -1.4)),
      isSilent(segment(" Hmm.", 0.8, null)),
      isSilent(segment(" Hmm.", null, -3))
    ]).toEqual([true, false, false, true, false])
  })

  it("the text is the spoken segments in order, trimmed and joined; silent ones stay in the segments, flagged", () => {
    const segments = segmentsOf([
      segment(" Ana moved to Porto in May.", 0.01, -0.2, 0),
      segment(" Thanks for watching!", 0.95, -1.6, 2),
      segment(" She starts at the clinic on Monday. ", 0.02, -0.3, 4)
    ])
    expect(segments).toEqual([
      { start: 0, end: 2, text: "Ana moved to Porto in May.", noSpeechProb: 0.01, silent: false },
      { start: 2, end: 4, text: "Thanks for watching!", noSpeechProb: 0.95, silent: true },
      { start: 4, end: 6, text: "She starts at the clinic on Monday.", noSpeechProb: 0.02, silent: false }
    ])
    expect(spokenText("ignored when there are segments", segments)).toBe("Ana moved to Porto in May. She starts at the clinic on Monday.")
  })

  it("all silence reads as nothing said; no segments at all reads as the server's whole text", () => {
    expect(spokenText("Thanks for watching!", segmentsOf([segment(" Thanks for watching!", 0.97, -2)]))).toBe("")
    expect(spokenText("  Ana moved to Porto.\n", [])).toBe("Ana moved to Porto.")
  })

  it("every spoken segment's words are in the text, in order, and no silent segment's text is added", () => {
    const raw = fc.record({
      text: fc.string({ minLength: 1 }).map((s) => ` ${s.replace(/\s/g, "x")}`),
      noSpeechProb: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
      avgLogprob: fc.option(fc.double({ min: -5, max: 0, noNaN: true }))
    }).map(({ avgLogprob, noSpeechProb, text }) => segment(text, noSpeechProb, avgLogprob))
    fc.assert(fc.property(fc.array(raw, { minLength: 1, maxLength: 8 }), (raws) => {
      const segments = segmentsOf(raws)
      const expected = raws.filter((r) => !isSilent(r)).map((r) => r.text.trim()).join(" ")
      expect(spokenText("", segments)).toBe(expected)
    }))
  })
})
