/**
 * Error messages of a bounded size however large or broken the input: a few issues, then a count
 * of the rest, and long values cut. An error body never echoes a request back at its size.
 */
import { graphemeBoundaries } from "./TruncateText.js"

/** Issues listed in full; the rest are counted. */
export const maxIssues = 5

/** Characters of a value quoted in an issue before it is cut. */
export const maxValueLength = 100

/** Characters of one issue, value included, before it is cut. */
export const maxIssueLength = 300

/** Marks a cut. */
export const ellipsis = "…"

/** `text` when it has at most `max` UTF-16 units; otherwise its longest prefix ending on a grapheme boundary within `max`, then `…`. */
export const cut = (text: string, max: number): string => {
  if (text.length <= max) return text
  const boundaries = graphemeBoundaries(text.slice(0, max + 16))
  let end = 0
  for (const boundary of boundaries) if (boundary <= max) end = boundary
  return text.slice(0, end) + ellipsis
}

const actualMarker = ", actual "

/** One issue with the value it quotes (after `, actual `) cut, and the whole cut to `maxIssueLength`. */
export const cutIssue = (issue: string): string => {
  const at = issue.lastIndexOf(actualMarker)
  const shortened = at === -1
    ? issue
    : issue.slice(0, at + actualMarker.length) + cut(issue.slice(at + actualMarker.length), maxValueLength)
  return cut(shortened, maxIssueLength)
}

/** The first `maxIssues` issues (each cut), `; `-separated, then `; and N more` when there are more. */
export const summarise = (issues: ReadonlyArray<string>): string => {
  const shown = issues.slice(0, maxIssues).map(cutIssue).join("; ")
  return issues.length > maxIssues ? `${shown}; and ${issues.length - maxIssues} more` : shown
}
