/**
 * Time zone names a user may set (`/tz Europe/Lisbon`): the IANA names the runtime knows, checked
 * with `Intl`, and for a name it does not know, the known names closest to it.
 */

/** Every IANA zone name the runtime knows, with `UTC`. */
const knownZones = (): ReadonlyArray<string> => {
  const names = Intl.supportedValuesOf("timeZone")
  return names.includes("UTC") ? names : [...names, "UTC"]
}

/** The canonical spelling of a zone name `Intl` accepts (`europe/lisbon` is `Europe/Lisbon`), or null. */
export const zoneName = (name: string): string | null => {
  const trimmed = name.trim()
  if (trimmed === "" || trimmed.length > 64) return null
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: trimmed }).resolvedOptions().timeZone
  } catch {
    return null
  }
}

/** Edits (insert, delete, substitute) between two strings, compared without case. */
const distance = (a: string, b: string): number => {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j)
  for (let i = 1; i <= x.length; i++) {
    const current = [i]
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[y.length]!
}

/** The place part of a zone name: `Lisbon` of `Europe/Lisbon`, `Sao_Paulo` of `America/Sao_Paulo`. */
const place = (zone: string): string => zone.slice(zone.lastIndexOf("/") + 1)

/**
 * Up to `limit` known zones closest to `name`, closest first: a name whose place is the one
 * written (`Lisbon`, `new york`) before any other, then by edits to the whole name or its place.
 */
export const closeZones = (name: string, limit = 3): ReadonlyArray<string> => {
  const wanted = name.trim().replace(/ /g, "_")
  return knownZones()
    .map((zone) => ({
      zone,
      samePlace: place(zone).toLowerCase() === wanted.toLowerCase() ? 0 : 1,
      edits: Math.min(distance(wanted, zone), distance(wanted, place(zone)))
    }))
    .sort((a, b) => a.samePlace - b.samePlace || a.edits - b.edits || (a.zone < b.zone ? -1 : 1))
    .slice(0, limit)
    .map((scored) => scored.zone)
}
