/**
 * The plan: the model's structured output. It only points at messages by seq; it never
 * writes note text. The JSON field names are a fixed contract (recorded responses and
 * replays depend on them). Descriptions travel to the model; no refinement is used, so a
 * plan that decodes is never rejected for its values — `applyPlan` repairs it.
 */
import { Schema } from "effect"

const SeqRef = Schema.Number.annotations({
  jsonSchema: { type: "integer" },
  description: "The seq number of one message in this session (messages are numbered 1, 2, 3 … in arrival order)."
})

const Seqs = (description: string) => Schema.Array(SeqRef).annotations({ description })

const Directives = Schema.Array(Schema.String).annotations({
  description:
    "Substrings of these messages that were instructions to the bot rather than content (for example \"remind me about this\"). Copy each one exactly, character for character, from a single message. Leave empty when there are none."
})

export const PlanNote = Schema.Struct({
  sourceItemSeqs: Seqs("The seqs of the messages that make up this note, in any order. Never write note text: only list seqs."),
  directives: Directives
}).annotations({ description: "One note: a group of messages that belong together." })
export type PlanNote = typeof PlanNote.Type

export const PlanPerson = Schema.Struct({
  contactId: Schema.NullOr(Schema.String).annotations({
    description: "The id of a contact from the contact list, or null for a person not in the list."
  }),
  name: Schema.String.annotations({ description: "The person's name as the sender refers to them." }),
  notes: Schema.Array(PlanNote).annotations({ description: "Notes about this person." })
}).annotations({ description: "A person the messages are about." })
export type PlanPerson = typeof PlanPerson.Type

export const PlanUnclear = Schema.Struct({
  sourceItemSeqs: Seqs("The seqs of messages too ambiguous to attribute."),
  candidates: Schema.Array(Schema.String).annotations({
    description: "Names of the people these messages might be about, to offer the sender as choices."
  })
}).annotations({ description: "Messages to ask the sender about." })
export type PlanUnclear = typeof PlanUnclear.Type

/** One reminder of a plan (prompt `v2` on): the contract's field names are fixed, like the rest of the plan's. */
export const PlanReminder = Schema.Struct({
  seq: SeqRef.annotations({ description: "The seq of the message whose words ask for the reminder." }),
  quote: Schema.String.annotations({
    description:
      "The words that ask for the reminder, copied exactly, character for character, from that one message (usually also one of its note's directives)."
  }),
  due: Schema.String.annotations({
    description:
      "When to remind, as YYYY-MM-DDTHH:MM on the sender's clock in their time zone. Count from the message's own local time (its `at`), not from now; with no hour in the words, use 09:00."
  })
}).annotations({ description: "A reminder the sender asked for in their own words." })
export type PlanReminder = typeof PlanReminder.Type

const placements = {
  people: Schema.Array(PlanPerson).annotations({ description: "People the messages are about, each with their notes." }),
  unattached: Schema.Array(PlanNote).annotations({
    description: "Notes about no one in particular: the sender's own thinking, plans and ideas."
  }),
  unclear: Schema.Array(PlanUnclear).annotations({
    description: "Messages whose subject is too ambiguous to decide; each becomes a question to the sender."
  }),
  botMessages: Seqs("Seqs of messages wholly addressed to the bot (commands, greetings to the bot), holding no content.")
}

const planDescription = "Where every message of the session goes. Every seq appears in exactly one place."

/** The plan of prompt `v1`: where each message goes, and nothing else. Its tool schema is kept as recorded answers were asked with it. */
export const PlanV1 = Schema.Struct(placements).annotations({ description: planDescription })

/**
 * The plan: where each message goes, and (prompt `v2` on) the reminders the sender asked for. A
 * plan without `reminders`, every `v1` plan among them, has none.
 */
export const Plan = Schema.Struct({
  ...placements,
  reminders: Schema.optionalWith(
    Schema.Array(PlanReminder).annotations({
      description: "Reminders the sender asked the bot for in these messages, each in their own words; empty when there are none."
    }),
    { exact: true }
  )
}).annotations({ description: planDescription })
export type Plan = typeof Plan.Type

export const emptyPlan: Plan = { people: [], unattached: [], unclear: [], botMessages: [] }
