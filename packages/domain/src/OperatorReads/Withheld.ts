/**
 * Another user's items as the operator is shown them under `VERBATIM_OPERATOR_READS=none`: the
 * same shape, ids, counts and states, with every text (message text, note bodies, people's
 * names, quotes, instructions) left empty and `withheld` saying why.
 */
import type { SessionAccounting } from "../Accounting.js"
import type { Note, Person, Question } from "../ApiResponses.js"
import type { Owner } from "../Decision.js"
import type { Reminder } from "../RemindersApi.js"
import { notReadMessage } from "./Mode.js"

const withheld = notReadMessage

const nameless = <A extends Owner>(owner: A): A => (owner._tag === "Person" ? { ...owner, name: "" } : owner)

export const person = (p: Person): Person => ({ ...p, name: "", withheld })

export const note = (n: Note): Note => ({ ...n, body: "", owner: nameless(n.owner), withheld })

export const question = (q: Question): Question => ({
  ...q,
  sources: q.sources.map((s) => ({ ...s, text: "" })),
  candidates: q.candidates.map(nameless),
  withheld
})

export const accounting = (a: SessionAccounting): SessionAccounting => ({
  ...a,
  // Each message built anew: a view passed in may carry more than the schema (its text among it).
  messages: a.messages.map((m) => ({
    messageId: m.messageId,
    seq: m.seq,
    dispositions: m.dispositions.map((d) => (d._tag === "Instruction" ? { ...d, text: "" } : d))
  })),
  reminders: a.reminders.map((r) => ({ ...r, quote: "", detail: null })),
  withheld
})

export const reminder = (r: Reminder): Reminder => ({ ...r, quote: "", withheld })
