/**
 * Shared contacts, locations, venues and polls carry no text of their own: each is captured as a
 * message whose text is one plain line rendering it, the same line whichever provider or export
 * it came from, so the model can file it and nothing a person forwards is silently ignored.
 */

const joined = (parts: ReadonlyArray<string | undefined>, separator: string): string =>
  parts.map((part) => part?.trim() ?? "").filter((part) => part !== "").join(separator)

/** `Contact: Ana Souza, +351 912 345 678` (every phone number, in the order given). */
export const contactText = (name: string | undefined, phones: ReadonlyArray<string>): string =>
  `Contact: ${joined([name, ...phones], ", ")}`

/** `Location: 38.7223, -9.1393`, or with a place `Location: Café, Rua Garrett 120 (38.7223, -9.1393)`. */
export const locationText = (latitude: number, longitude: number, place: ReadonlyArray<string | undefined> = []): string => {
  const named = joined(place, ", ")
  return named === "" ? `Location: ${latitude}, ${longitude}` : `Location: ${named} (${latitude}, ${longitude})`
}

/** `Poll: Dinner? — Friday / Saturday`. */
export const pollText = (question: string, options: ReadonlyArray<string>): string =>
  `Poll: ${question} — ${options.join(" / ")}`

/** A name from its parts, as a contact card writes it. */
export const fullName = (parts: ReadonlyArray<string | undefined>): string => joined(parts, " ")
