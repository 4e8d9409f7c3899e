/** The subject-access copy's Markdown quotes every text exactly and names every download safely. */
import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { DateTime } from "effect"
import { PersonId, UserId } from "../src/Ids.js"
import { attachmentOf } from "../src/SubjectAccess/Copy.js"
import { fenced, inline, renderCopy } from "../src/SubjectAccess/Markdown.js"

const runs = { numRuns: propertyRuns() }

/** Text made of Markdown's own marks, line breaks and letters. */
const marked = fc.string({ unit: fc.constantFrom("`", "~", "\n", " ", "\t", "#", "*", "_", ">", "<", "&", "[", "]", "\\", "a", "é", "🙂"), maxLength: 60 })

const longestTicks = (text: string) => Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length))

describe("the copy's Markdown", () => {
  test.prop([marked], runs)("a fence holds any text exactly, longer than every backtick run in it, so no line of it closes the fence", (text) => {
    fc.pre(text !== "")
    const fence = "`".repeat(Math.max(3, longestTicks(text) + 1))
    expect([fenced(text), longestTicks(text) < fence.length]).toEqual([`${fence}text\n${text}\n${fence}`, true])
  })

  test.prop([marked], runs)("a name on one line reads as itself once its escapes are undone, and leaves no mark unescaped", (text) => {
    const out = inline(text)
    expect([out.replace(/\\(.)/gu, "$1"), /(^|[^\\])(\\\\)*[`*_[\]<>#~&]/u.test(out)]).toEqual([text.replace(/\s+/g, " ").trim(), false])
  })

  it("says so for an empty text instead of an empty fence", () => {
    expect(fenced("")).toBe("*(no text)*")
  })

  it("a name of Markdown's marks heads the document as its characters", () => {
    const copy = {
      format: "verbatim.subject-access/1",
      exportedAt: DateTime.unsafeMake(0),
      person: { id: PersonId.make("person_1"), user: UserId.make("telegram:1"), name: "# *Ana* <b>&amp;", formerNames: ["Ana_B"], mergedIn: [] },
      notes: [],
      discarded: []
    } as const
    expect(renderCopy(copy).split("\n")).toEqual([
      "# What I hold about \\# \\*Ana\\* \\<b\\>\\&amp;",
      "",
      "Exported 1970-01-01T00:00:00.000Z: every note filed under \\# \\*Ana\\* \\<b\\>\\&amp;, those of people merged into them included, " +
      "0 notes in the order they were recorded, then 0 discarded notes (set aside by their owner and still held). Each note gives its text, " +
      "when it was recorded, its owner, every message it was made from quoted exactly as stored (with its earlier text if it was edited, and " +
      "what read any attachment), the instructions to the bot cut from them, the plan or answer that filed it and every change made to it.",
      "",
      "- Person `person_1` of telegram:1",
      "- Name: \\# \\*Ana\\* \\<b\\>\\&amp;",
      "- Former names: Ana\\_B",
      "- People merged into them: none",
      ""
    ])
  })
})

describe("a download's file name", () => {
  it("is the person's name as the Markdown export names pages; another script keeps its name in filename* and an ASCII stand-in", () => {
    expect(["Ana Lima", "../../etc/passwd", "Жанна", "\"; evil=1"].map((name) => attachmentOf(name, "md"))).toEqual([
      "attachment; filename=\"ana-lima.md\"; filename*=UTF-8''ana-lima.md",
      "attachment; filename=\"etc-passwd.md\"; filename*=UTF-8''etc-passwd.md",
      "attachment; filename=\"person.md\"; filename*=UTF-8''%D0%B6%D0%B0%D0%BD%D0%BD%D0%B0.md",
      "attachment; filename=\"evil-1.md\"; filename*=UTF-8''evil-1.md"
    ])
  })

  test.prop([fc.string({ unit: "grapheme", maxLength: 40 })], runs)("is printable ASCII with nothing that ends the quoted name, whatever the name", (name) => {
    const header = attachmentOf(name, "json")
    expect([/^[\x20-\x7e]+$/.test(header), /^attachment; filename="[a-z0-9-]+\.json"; filename\*=UTF-8''[A-Za-z0-9%._~!'()*-]+$/.test(header)]).toEqual([true, true])
  })
})
