/** Shared inputs for the planner tests: two users' contacts and a small session. */
import { PersonId } from "@verbatim/domain/Ids"
import { DateTime } from "effect"
import type { PlanningChunk } from "../src/BuildRequest.js"
import type { Contact, PlanningMessage } from "../src/RenderRequest.js"

export const anna: Contact = { id: PersonId.make("p-anna"), name: "Anna Berg", lastUsedAt: DateTime.unsafeMake("2026-11-20T10:00:00Z") }
export const omar: Contact = { id: PersonId.make("p-omar"), name: "Omar", lastUsedAt: DateTime.unsafeMake("2026-11-29T10:00:00Z") }
/** Never used yet: the first to give way. */
export const lee: Contact = { id: PersonId.make("p-lee"), name: "Lee <Dentist>" }

export const contactsOfAlice: ReadonlyArray<Contact> = [anna, omar, lee]

export const contactsOfBob: ReadonlyArray<Contact> = [
  { id: PersonId.make("p-zoe"), name: "Zoë Quist", lastUsedAt: DateTime.unsafeMake("2026-11-28T10:00:00Z") }
]

export const message = (seq: number, text: string, extra: Partial<PlanningMessage> = {}): PlanningMessage => ({
  seq,
  kind: "text",
  forwardedFrom: null,
  replyToSeq: null,
  text,
  ...extra
})

export const first = message(1, "Anna starts at the bakery on Monday")
export const second = message(2, "She wants sourdough lessons", { replyToSeq: 1 })
export const third = message(3, "Board meeting moved to Thursday", { forwardedFrom: "Omar", kind: "caption" })

export const session: PlanningChunk = [first, second, third]

/** One character, one token: makes every budget in these tests exact. */
export const countChars = (text: string): number => text.length

/** An error's fields with its message, which `toEqual` alone skips for Error instances. */
export const errorFields = (error: unknown): unknown =>
  error instanceof Error ? { ...error, message: error.message } : error
