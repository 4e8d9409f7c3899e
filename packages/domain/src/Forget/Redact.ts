/**
 * What a stored event keeps once words are forgotten: the same event, in the same place of the
 * log, with every field that held the forgotten words emptied. A message keeps its id, seq, times
 * and attachments' ids and loses its text, links, forwarded-from and file names; a transcript,
 * an edit, a directive cut or an instruction from it lose their text; a plan loses the directives
 * it quoted from it; a reply that quoted it loses its text; a reminder its quote. A forgotten
 * person loses their name wherever it was recorded. `redact` is pure and idempotent: the
 * scrubber rewrites each stored payload it changes, and a rebuild reads them back as they are.
 */
import type { Candidate, Owner } from "../Decision.js"
import type { Event } from "../Events.js"
import type { MessageId, PersonId, ReplyId } from "../Ids.js"
import { makeInboundMessage } from "../Message.js"
import { nameKey } from "../Session/People.js"

/** What is being forgotten, as the scrubber found it before rewriting anything. */
export interface Forgetting {
  readonly messages: ReadonlySet<MessageId>
  /** Every text the messages had (sent, edited, read from their media): a plan's directive quoting one goes. */
  readonly texts: ReadonlyArray<string>
  readonly replies: ReadonlySet<ReplyId>
  readonly people: ReadonlySet<PersonId>
  /** The forgotten people's names, as `nameKey` makes them. */
  readonly names: ReadonlySet<string>
  /** Everything of the user is forgotten: the questions they asked through Ask too. */
  readonly everything: boolean
}

const quotes = (forgetting: Forgetting, text: string): boolean =>
  text !== "" && forgetting.texts.some((t) => t.includes(text))

const unnamed = <O extends Owner | Candidate>(forgetting: Forgetting, owner: O): O =>
  owner._tag === "Person" && ((owner.contactId !== null && forgetting.people.has(owner.contactId as PersonId)) || forgetting.names.has(nameKey(owner.name)))
    ? { ...owner, name: "" }
    : owner

/** A raw plan (the model's JSON) without the directives it quoted from forgotten words and without forgotten names. */
const redactPlan = (forgetting: Forgetting, plan: unknown): unknown => {
  if (Array.isArray(plan)) return plan.map((item) => redactPlan(forgetting, item))
  if (plan === null || typeof plan !== "object") return plan
  return Object.fromEntries(Object.entries(plan).map(([key, value]) => {
    if (key === "directives" && Array.isArray(value)) return [key, value.filter((d) => typeof d !== "string" || !quotes(forgetting, d))]
    if (key === "name" && typeof value === "string" && forgetting.names.has(nameKey(value))) return [key, ""]
    if (key === "candidates" && Array.isArray(value)) {
      return [key, value.map((c) => typeof c === "string" && forgetting.names.has(nameKey(c)) ? "" : c)]
    }
    return [key, redactPlan(forgetting, value)]
  }))
}

/** The event as it is kept once `forgetting` is done; the same value when it held none of it. */
export const redact = (forgetting: Forgetting, event: Event): Event => {
  const gone = (id: MessageId) => forgetting.messages.has(id)
  switch (event._tag) {
    case "MessageReceived": {
      const m = event.message
      if (!gone(m.id)) return event
      const attachments = m.attachments.map((a) => ({ ...a, fileName: null }))
      return { ...event, message: makeInboundMessage({ ...m, text: "", forwardedFrom: null, links: [], attachments }) }
    }
    case "MessageEdited":
      return gone(event.messageId) ? { ...event, text: "", links: [] } : event
    case "MediaTranscribed":
      return gone(event.messageId) ? { ...event, text: "", segments: [], ...(event.pages === undefined ? {} : { pages: [] }) } : event
    case "PlanProduced":
      return { ...event, plan: redactPlan(forgetting, event.plan) as typeof event.plan }
    case "NoteRecorded":
      return {
        ...event,
        owner: unnamed(forgetting, event.owner),
        directives: event.directives.map((d) => gone(d.messageId) ? { ...d, text: "" } : d)
      }
    case "InstructionRecorded":
      return gone(event.messageId) ? { ...event, text: "" } : event
    case "QuestionParked":
      return { ...event, candidates: event.candidates.map((c) => unnamed(forgetting, c)) }
    case "QuestionAnswered":
      return { ...event, answer: unnamed(forgetting, event.answer) }
    case "NoteMoved":
      return { ...event, owner: unnamed(forgetting, event.owner) }
    case "PersonAdded":
    case "PersonRenamed":
      return forgetting.people.has(event.personId) ? { ...event, name: "" } : event
    case "ReplyQueued":
      return {
        ...event,
        text: forgetting.replies.has(event.replyId) ? "" : event.text,
        buttons: event.buttons.map((b) => forgetting.names.has(nameKey(b.label)) ? { ...b, label: "" } : b)
      }
    case "AskPosed":
      return forgetting.everything ? { ...event, question: "" } : event
    case "AskAnswered":
      return {
        ...event,
        kept: event.kept.map((q) => forgetting.everything || gone(q.messageId) ? { ...q, text: "" } : q),
        dropped: event.dropped.map((d) => forgetting.everything || quotes(forgetting, d.text) ? { ...d, text: "" } : d)
      }
    case "ReminderScheduled":
    case "ReminderTimeAsked":
      return gone(event.messageId) ? { ...event, quote: "" } : event
    default:
      return event
  }
}
