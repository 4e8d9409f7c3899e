import { describe, expect, it } from "@effect/vitest"
import { cut, cutIssue, summarise } from "@verbatim/domain/IssueSummary"

describe("IssueSummary", () => {
  it("cuts on a grapheme boundary and marks the cut", () => {
    expect([cut("abc", 3), cut("abcd", 3), cut("ab👍🏽cd", 3), cut("ab👍🏽cd", 6)]).toEqual(["abc", "abc…", "ab…", "ab👍🏽…"])
  })

  it("cuts the quoted value of an issue, then the whole issue", () => {
    expect([cutIssue(`x: Expected string, actual "${"a".repeat(120)}"`), cutIssue("y".repeat(301))]).toEqual([
      `x: Expected string, actual "${"a".repeat(99)}…`,
      `${"y".repeat(300)}…`
    ])
  })

  it("lists five issues and counts the rest", () => {
    const issues = Array.from({ length: 7 }, (_, i) => `issue ${i}`)
    expect([summarise(issues.slice(0, 5)), summarise(issues)]).toEqual([
      "issue 0; issue 1; issue 2; issue 3; issue 4",
      "issue 0; issue 1; issue 2; issue 3; issue 4; and 2 more"
    ])
  })
})
