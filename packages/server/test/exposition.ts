/** Reading a Prometheus text exposition (0.0.4) in tests: every line checked, samples by series. */
import { expect } from "@effect/vitest"

const metricName = "[a-zA-Z_:][a-zA-Z0-9_:]*"
const labelPair = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"`
const sampleLine = new RegExp(`^(${metricName})(\\{${labelPair}(?:,${labelPair})*\\})? (-?[0-9.e+-]+|\\+Inf|-Inf|NaN)$`)
const helpLine = new RegExp(`^# HELP (${metricName}) .+$`)
const typeLine = new RegExp(`^# TYPE (${metricName}) (counter|gauge|histogram|summary|untyped)$`)

/**
 * Check every line: HELP then TYPE once per family, each sample after its family's TYPE and named
 * for it (`_bucket`, `_sum`, `_count` for histograms), the body ending in a newline. Returns the
 * families in order, with their types.
 */
export const checkExposition = (body: string): ReadonlyArray<readonly [string, string]> => {
  expect(body.endsWith("\n")).toBe(true)
  const families: Array<readonly [string, string]> = []
  const seen = new Set<string>()
  let help: string | null = null
  let current: readonly [string, string] | null = null
  for (const line of body.slice(0, -1).split("\n")) {
    const h = helpLine.exec(line)
    const t = typeLine.exec(line)
    const s = sampleLine.exec(line)
    if (h !== null) {
      expect({ line, seen: seen.has(h[1]!) }).toEqual({ line, seen: false })
      seen.add(h[1]!)
      help = h[1]!
    } else if (t !== null) {
      expect({ line, help }).toEqual({ line, help: t[1] })
      current = [t[1]!, t[2]!]
      families.push(current)
      help = null
    } else if (s !== null) {
      const [name, type] = current ?? ["", ""]
      const allowed = type === "histogram" ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name]
      expect({ line, belongs: allowed.includes(s[1]!) }).toEqual({ line, belongs: true })
    } else {
      expect({ line, valid: false }).toEqual({ line, valid: true })
    }
  }
  return families
}

/** Every sample by its series (`name{labels}`). */
export const samples = (body: string): ReadonlyMap<string, number> =>
  new Map(body.split("\n").filter((l) => l !== "" && !l.startsWith("#")).map((l) => {
    const at = l.lastIndexOf(" ")
    return [l.slice(0, at), Number(l.slice(at + 1))] as const
  }))

/** The series of `name` whose value changed between two scrapes, by how much. */
export const delta = (before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>, name: string): Record<string, number> =>
  Object.fromEntries(
    [...after.entries()]
      .filter(([series]) => series === name || series.startsWith(`${name}{`))
      .map(([series, value]) => [series, value - (before.get(series) ?? 0)] as const)
      .filter(([, change]) => change !== 0)
      .sort(([a], [b]) => a.localeCompare(b))
  )
