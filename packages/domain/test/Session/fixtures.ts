/**
 * A session's history as the decider itself records it (message ids are the provider's, as
 * `Capture` makes them) and the commands it decides; `Decided.ts` builds the events decided.
 */
import { at, user } from "@verbatim/testkit/Given"
import { DeciderSpec } from "@verbatim/testkit/DeciderSpec"
import type { DateTime } from "effect"
import { noExtras } from "../../src/Attachment.js"
import type { Candidate, Owner } from "../../src/Decision.js"
import type { Event, PlanFailureReason } from "../../src/Events.js"
import type { Json } from "../../src/Json.js"
import { countingIds, messageIdOf, PersonId, PlanId, QuestionId, SessionId, UserId } from "../../src/Ids.js"
import type { Edit, NewMessage } from "../../src/Inbound/Inbound.js"
import { makeInboundMessage } from "../../src/Message.js"
import type { Plan } from "../../src/Plan.js"
import { type Choice, Command, type PlannedChunk } from "../../src/Session/Commands.js"
import { sessionDecider } from "../../src/Session/Decide.js"
import type { KnownPerson } from "../../src/Session/People.js"

export { at, user }

/** Every decision test states its rule through this specification. */
export const spec = DeciderSpec.for(sessionDecider)

export const sessionId = SessionId.make("s1")
export const chat = "100000001"
/** Another user of the service. */
export const stranger = UserId.make("telegram:200000002")

/** The provider's id of message `seq` (Telegram's `chatId:message_id`). */
export const providerId = (seq: number) => `${chat}:${seq}`
export const messageId = (seq: number) => messageIdOf("telegram", providerId(seq))
export const planId = (id: string) => PlanId.make(id)
export const questionId = (id: string) => QuestionId.make(id)
export const personId = (id: string) => PersonId.make(id)

/** `{ seq, messageId }` of each seq, as notes and questions name their messages. */
export const sources = (...seqs: ReadonlyArray<number>) => seqs.map((seq) => ({ seq, messageId: messageId(seq) }))

export const person = (name: string, contactId: string | null = null): Owner & Candidate => ({ _tag: "Person", contactId, name })
export const unattached: Owner & Candidate = { _tag: "Unattached" }

// History ---------------------------------------------------------------------------------------

export const opened = (seconds = 0): Event => ({ _tag: "SessionOpened", sessionId, user, provider: "telegram", chat, openedAt: at(seconds) })

/** Message `seq` as captured at `seq` seconds. */
/** A message as `capture` records it: with the send time `newMessage` gives (an hour before the fixed instant). */
export const captured = (seq: number, text: string, seconds = seq) => makeInboundMessage({ ...message(seq, text, seconds), sentAt: at(-3600) })

export const message = (seq: number, text: string, seconds = seq) =>
  makeInboundMessage({
    id: messageId(seq),
    sessionId,
    seq,
    provider: "telegram",
    providerMessageId: providerId(seq),
    sender: user,
    chat,
    text,
    kind: "text",
    forwardedFrom: null,
    replyTo: null,
    ...noExtras,
    receivedAt: at(seconds)
  })

export const received = (seq: number, text: string, seconds = seq): Event => ({ _tag: "MessageReceived", message: message(seq, text, seconds) })

export const edited = (seq: number, text: string, seconds: number): Event => ({
  _tag: "MessageEdited",
  messageId: messageId(seq),
  sessionId,
  text,
  links: [],
  editedAt: at(seconds)
})

export const closed = (messageCount: number, reason: "idle" | "command" | "import" = "idle", seconds = 600): Event => ({
  _tag: "SessionClosed",
  sessionId,
  reason,
  messageCount,
  closedAt: at(seconds)
})

/** An open session of these messages, seq 1, 2, … */
export const openSession = (...texts: ReadonlyArray<string>): Array<Event> => [opened(), ...texts.map((text, i) => received(i + 1, text))]

/** A closed session of these messages: its revision is the number of messages plus 2. */
export const closedSession = (...texts: ReadonlyArray<string>): Array<Event> => [...openSession(...texts), closed(texts.length)]

// Commands --------------------------------------------------------------------------------------

const senderId = "100000001"

export const newMessage = (seq: number, text: string, options: { readonly sender?: string } = {}): NewMessage => ({
  _tag: "NewMessage",
  provider: "telegram",
  providerMessageId: providerId(seq),
  senderId: options.sender ?? senderId,
  chatId: chat,
  senderName: "Ana",
  text,
  kind: "text",
  forwardedFrom: null,
  replyTo: null,
  attachments: [], links: [], mediaGroup: null,
  // The provider's time is not the capture's: `receivedAt` is the command's `now`.
  sentAt: at(-3600)
})

/** The sender's edit of message `seq` to `text`, made at `seconds` by the provider's clock. */
export const anEdit = (seq: number, text: string, seconds: number, options: { readonly sender?: string } = {}): Edit => {
  const { _tag: _, ...fields } = newMessage(seq, text, options)
  return { _tag: "Edit", ...fields, editKey: `edit:${seconds}`, editedAt: at(seconds) }
}

export const capture = (seq: number, text: string, now: DateTime.Utc, fromEdit: Edit | null = null, id = sessionId) =>
  Command.Capture({ sessionId: id, message: newMessage(seq, text), fromEdit, now })

export const edit = (seq: number, text: string, seconds: number, options: { readonly sender?: string } = {}) =>
  Command.Edit({ edit: anEdit(seq, text, seconds, options) })

export const usage = { inputTokens: 900, outputTokens: 120, cacheReadTokens: 0, cacheWriteTokens: 0 }

/** A chunk's plan over seqs `fromSeq`…`toSeq`; `raw` is what the model sent (the plan itself unless told). */
export const chunk = (plan: Plan, fromSeq: number, toSeq: number, raw: Json = plan): PlannedChunk => ({
  plan,
  raw,
  model: "claude-test",
  usage,
  chunk: { fromSeq, toSeq },
  truncation: { contactsDropped: 0, cutSeq: null },
  durationMs: 1200
})

export const plan = (parts: Partial<Plan>): Plan => ({ people: [], unattached: [], unclear: [], botMessages: [], ...parts })

export const recordPlans = (
  plans: ReadonlyArray<PlannedChunk>,
  revision: number,
  options: { readonly known?: ReadonlyArray<KnownPerson>; readonly replan?: boolean } = {}
) =>
  Command.RecordPlans({
    prompt: { version: "v1", hash: "sha256:abc" },
    plans,
    known: options.known ?? [],
    revision,
    replan: options.replan ?? false,
    ids: countingIds(),
    now: at(100)
  })

export const failPlan = (reason: PlanFailureReason, detail: string, revision: number, replan = false) =>
  Command.FailPlan({ reason, detail, revision, replan, ids: countingIds() })

export const answer = (
  question: string,
  choice: Choice,
  options: { readonly asker?: UserId | null; readonly known?: ReadonlyArray<KnownPerson> } = {}
) =>
  Command.Answer({
    questionId: QuestionId.make(question),
    choice,
    asker: options.asker === undefined ? user : options.asker,
    known: options.known ?? [],
    ids: countingIds(),
    now: at(900)
  })

export const option = (index: number): Choice => ({ _tag: "Option", index })
export const given = (answer: Owner): Choice => ({ _tag: "Given", answer })
