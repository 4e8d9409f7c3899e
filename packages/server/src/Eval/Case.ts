/**
 * One case of the shipped evaluation set made into what replay works on: its messages as
 * captured, its contacts as the prompt lists them, the user's people, and its expected outcome
 * as labels (scored like the labels the log yields); and its reminders scored against the ones it expects.
 */
import { noExtras } from "@verbatim/domain/Attachment"
import * as Directory from "@verbatim/domain/Eval/Directory"
import type { SessionLabels } from "@verbatim/domain/Eval/Labels"
import { messageIdOf, PersonId, SessionId, UserId } from "@verbatim/domain/Ids"
import { type InboundMessage, makeInboundMessage, sentAtOf } from "@verbatim/domain/Message"
import type { Plan } from "@verbatim/domain/Plan"
import { reminderViews } from "@verbatim/domain/Eval/ReminderDiff"
import { type ReminderScore, scoreReminders } from "@verbatim/domain/Eval/ReminderScore"
import { proposedReminders } from "@verbatim/domain/Reminders/FromPlan"
import type { EvalCase } from "@verbatim/planner/EvalSet"
import type { Contact } from "@verbatim/planner/RenderRequest"
import { DateTime } from "effect"

const user = UserId.make("eval:sender")

export interface PreparedCase {
  readonly messages: ReadonlyArray<InboundMessage>
  readonly contacts: ReadonlyArray<Contact>
  readonly people: Directory.Directory
  readonly labels: SessionLabels
  readonly zone: string
}

const target = (people: Directory.Directory, owner: string): Directory.Target => {
  if (owner === "(unattached)") return { _tag: "Unattached" }
  if (owner === "(bot)") return { _tag: "Bot" }
  return Directory.resolveOwner(people, { _tag: "Person", contactId: null, name: owner })
}

export const prepare = (evalCase: EvalCase): PreparedCase => {
  const sessionId = SessionId.make(`eval:${evalCase.id}`)
  const messages = evalCase.messages.map((m, i) =>
    makeInboundMessage({
      id: messageIdOf("telegram", `eval-${evalCase.id}:${i + 1}`),
      sessionId,
      seq: i + 1,
      provider: "telegram",
      providerMessageId: `eval-${evalCase.id}:${i + 1}`,
      sender: user,
      chat: "eval",
      text: m.text,
      kind: "text",
      forwardedFrom: m.forwardedFrom,
      replyTo: null,
      ...noExtras,
      receivedAt: m.at ?? DateTime.unsafeMake(i * 1000)
    })
  )
  const contacts = evalCase.contacts.map((c) => ({ id: PersonId.make(c.id), name: c.name }))
  const people = Directory.make(contacts.map((c) => ({ _tag: "PersonAdded", personId: c.id, user, name: c.name }) as const))
  const labels: SessionLabels = {
    sessionId,
    messages: messages.map((m) => {
      const owner = evalCase.expected[String(m.seq)]
      return { seq: m.seq, messageId: m.id, target: owner === undefined ? null : target(people, owner), basis: owner === undefined ? "open" : "plan" }
    }),
    answered: [],
    edited: []
  }
  return { messages, contacts, people, labels, zone: evalCase.zone }
}

/** A plan's reminders (its chunks' together) checked against the case's messages in its zone, scored against the expected ones. */
export const scoreCaseReminders = (evalCase: EvalCase, messages: ReadonlyArray<InboundMessage>, plans: ReadonlyArray<Plan>): ReminderScore => {
  const sources = messages.map((m) => ({ seq: m.seq, messageId: m.id, text: m.text, sentAt: sentAtOf(m) }))
  return scoreReminders(evalCase.reminders, reminderViews(proposedReminders(plans.flatMap((p) => p.reminders ?? []), sources, evalCase.zone)))
}
