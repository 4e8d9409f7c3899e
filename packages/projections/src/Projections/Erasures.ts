/**
 * Forgetting on the read model: erased messages keep their row (its place in the session, marked
 * `erased_at`) with no words; their edits, cuts, instructions and confirmations go; the notes and
 * questions that held them lose them (a note left with none goes, one that keeps others says which
 * it lost in `note_erasures`, an open question is withdrawn); a note or person that goes leaves
 * its id, user and time in `forgotten_items`;
 * the replies that quoted them and reminders that quoted them keep no text; a forgotten person's row
 * goes. Every change sets absolute values, so the live path and a rebuild from the scrubbed log agree.
 */
import type { ForgetEvent } from "@verbatim/domain/Forget/Events"
import { nameKey } from "@verbatim/domain/Session/People"
import { absurd } from "effect"
import type { StoredOf } from "../EventCodec.js"
import { deriveBody } from "./Notes.js"
import { type Keys, patch, type Step, stepwise } from "./Projection.js"
import type { Batch } from "./Rows.js"

const erase = (batch: Batch, event: StoredOf<"MessagesErased">) => {
  const gone = new Set<unknown>(event.messageIds)
  for (const id of event.messageIds) {
    const message = batch.get("messages", id)
    if (message) {
      batch.update("messages", message, {
        text: "",
        sender_text: message.sender_text === null ? null : "",
        forwarded_from: null,
        erased_at: event.erasedAt
      })
    }
    for (const edit of batch.where("message_edits", "message_id", id)) batch.delete("message_edits", edit)
    for (const media of batch.where("message_media", "message_id", id)) {
      batch.update("message_media", media, { derived_text: media.derived_text === null ? null : "", segments: null, file_name: null })
    }
    for (const instruction of batch.where("instructions", "message_id", id)) batch.delete("instructions", instruction)
    for (const reminder of batch.where("reminders", "message_id", id)) batch.update("reminders", reminder, { quote: "" })
    const confirmation = batch.get("confirmations", id)
    if (confirmation) batch.delete("confirmations", confirmation)
  }
  for (const noteId of event.notes) {
    const erased = batch.where("note_sources", "note_id", noteId).filter((source) => gone.has(source.message_id))
    for (const source of erased) batch.delete("note_sources", source)
    const directives = batch.where("note_directives", "note_id", noteId).sort((a, b) => Number(a.ordinal) - Number(b.ordinal))
    for (const directive of directives) batch.delete("note_directives", directive)
    const note = batch.get("notes", noteId)
    if (batch.where("note_sources", "note_id", noteId).length === 0) {
      if (note) batch.delete("notes", note)
      for (const row of batch.where("note_erasures", "note_id", noteId)) batch.delete("note_erasures", row)
      batch.put("forgotten_items", { kind: "note", item_id: noteId, user_id: event.user, forgotten_at: event.erasedAt })
      continue
    }
    for (const source of erased) {
      batch.put("note_erasures", { note_id: noteId, message_id: source.message_id, seq: source.seq, erased_at: event.erasedAt })
    }
    directives.filter((d) => !gone.has(d.message_id)).forEach((d, ordinal) => batch.put("note_directives", { ...d, ordinal }))
    deriveBody(batch, noteId)
  }
  for (const questionId of event.questions) {
    for (const held of batch.where("question_messages", "question_id", questionId)) if (gone.has(held.message_id)) batch.delete("question_messages", held)
    const question = batch.get("questions", questionId)
    if (question && question.status === "open" && batch.where("question_messages", "question_id", questionId).length === 0) {
      batch.update("questions", question, { status: "withdrawn" })
    }
  }
  for (const replyId of event.replies) patch(batch, "replies", replyId, { text: "" })
  blankAsks(batch, event.user, (messageId) => gone.has(messageId), false)
}

/** The user's asks without the words of erased messages in their kept quotes; with `question`, without their question too. */
const blankAsks = (batch: Batch, user: string, erased: (messageId: unknown) => boolean, question: boolean) => {
  for (const ask of batch.where("asks", "user_id", user)) {
    const kept = typeof ask.quotes === "string" ? JSON.parse(ask.quotes) as Array<{ messageId: string; text: string }> : null
    const quotes = kept === null ? null : JSON.stringify(kept.map((q) => erased(q.messageId) ? { ...q, text: "" } : q))
    const changes = { ...(quotes === ask.quotes ? {} : { quotes }), ...(question && ask.question !== "" ? { question: "" } : {}) }
    if (Object.keys(changes).length > 0) batch.update("asks", ask, changes)
  }
}

type Named = { readonly _tag: string; readonly contactId?: string | null; readonly name?: string }

/** The rows an erasure changes: the messages' own, their notes', questions' and replies', and the user's asks. */
const erasedWants = (event: StoredOf<"MessagesErased">, keys: Keys) => {
  for (const id of event.messageIds) {
    for (const table of ["messages", "message_edits", "message_media", "instructions", "reminders", "confirmations"] as const) {
      keys.add(table, "message_id", id)
    }
  }
  for (const noteId of event.notes) {
    for (const table of ["notes", "note_sources", "note_directives", "note_erasures"] as const) keys.add(table, "note_id", noteId)
  }
  for (const questionId of event.questions) {
    keys.add("questions", "question_id", questionId)
    keys.add("question_messages", "question_id", questionId)
  }
  for (const replyId of event.replies) keys.add("replies", "reply_id", replyId)
  keys.add("asks", "user_id", event.user)
}

/**
 * A forgotten person's names leave the questions that offered or took them and the buttons that
 * showed them, as `redact` leaves those events; their row goes. A rebuild finds the row without a
 * name (its events were scrubbed) and the other rows blank already.
 */
const forgetPerson = (batch: Batch, event: StoredOf<"PersonForgotten">) => {
  const person = batch.get("people", event.personId)
  if (!person) return
  const former = typeof person.former_names === "string" ? person.former_names.split("\n") : []
  const names = new Set([String(person.name ?? ""), ...former].filter((n) => n !== "").map(nameKey))
  const blank = <N extends Named>(c: N): N =>
    c._tag === "Person" && (c.contactId === event.personId || names.has(nameKey(c.name ?? ""))) ? { ...c, name: "" } : c
  for (const question of batch.where("questions", "user_id", event.user)) {
    const candidates = JSON.stringify((JSON.parse(String(question.candidates)) as Array<Named>).map(blank))
    const answer = question.answer === null ? null : JSON.stringify(blank(JSON.parse(String(question.answer)) as Named))
    if (candidates !== question.candidates || answer !== question.answer) batch.update("questions", question, { candidates, answer })
  }
  for (const reply of batch.where("replies", "user_id", event.user)) {
    const buttons = JSON.stringify((JSON.parse(String(reply.buttons)) as Array<{ label: string }>).map((b) => names.has(nameKey(b.label)) ? { ...b, label: "" } : b))
    if (buttons !== reply.buttons) batch.update("replies", reply, { buttons })
  }
  batch.delete("people", person)
  batch.put("forgotten_items", { kind: "person", item_id: event.personId, user_id: event.user, forgotten_at: event.forgottenAt })
}

export const Erasures = stepwise<ForgetEvent["_tag"]>(
  "erasures",
  ["Forgotten", "MessagesErased", "PersonForgotten"],
  (event): Step => {
    switch (event._tag) {
      case "Forgotten":
        // Everything of a user: the questions they asked, and every quote of their answers.
        return {
          wants: (keys) => {
            if (event.target._tag === "User") keys.add("asks", "user_id", event.user)
          },
          evolve: (batch) => {
            if (event.target._tag === "User") blankAsks(batch, event.user, () => true, true)
          }
        }
      case "PersonForgotten":
        return {
          wants: (keys) => {
            keys.add("questions", "user_id", event.user)
            keys.add("replies", "user_id", event.user)
            keys.add("people", "person_id", event.personId)
          },
          evolve: (batch) => forgetPerson(batch, event)
        }
      case "MessagesErased":
        return { wants: (keys) => erasedWants(event, keys), evolve: (batch) => erase(batch, event) }
      default:
        return absurd(event)
    }
  }
)
