/** File names of exported pages: safe for any name, told apart in the order their owners came. */
import { describe, expect, it } from "@effect/vitest"
import { distinctSlugs, slug } from "../src/Slug.js"

describe("export file names", () => {
  it("keeps letters and digits of any script, joined by hyphens, and names the nameless", () => {
    expect(["Ana Lima", "  O'Brien / Ann: \"the\" <boss>? ", "Жанна", "李 小龙", "../../etc/passwd", "🙂", "", "CON", "ＡＢＣ"]
      .map((name) => slug(name, "person")))
      .toEqual(["ana-lima", "o-brien-ann-the-boss", "жанна", "李-小龙", "etc-passwd", "person", "person", "con-person", "abc"])
  })

  it("cuts a long name at a word, and a single long word at 60 characters", () => {
    expect(slug(`${"word ".repeat(20)}end`, "person")).toEqual(Array(12).fill("word").join("-"))
    expect(slug("x".repeat(80), "person")).toEqual("x".repeat(60))
  })

  it("tells apart names that share a file name, first come first, never taking one already used", () => {
    expect(distinctSlugs(["Ana", "ana", "Ana 2", "ANA", "Bo"], "person")).toEqual(["ana", "ana-2", "ana-2-2", "ana-3", "bo"])
  })
})
