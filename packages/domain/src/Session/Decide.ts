/**
 * The session decider: `decide(state, command)` is every rule of a session's life, pure. The
 * runner reads the stream, folds it with `evolve`, decides, and appends at the version it read.
 */
import { DateTime, Either } from "effect"
import type { Event } from "../Events.js"
import { messageIdOf, userIdOf } from "../Ids.js"
import { makeInboundMessage } from "../Message.js"
import { decideAnswer } from "./Answer.js"
import { type Command, type Decision, type Rejected, rejected } from "./Commands.js"
import { decideDiscardNote, decideMoveNote, decideSplitNote } from "./Curation.js"
import { decideErase } from "./Erase.js"
import { decideMedia } from "./Media.js"
import { decideFailPlan, decideRecordPlans } from "./Plans.js"
import { evolve, empty, nextSeq, senderText, type SessionState } from "./State.js"
import type { Decider } from "../Decider.js"

export { evolve, empty as initialState } from "./State.js"

export type { Decision } from "./Commands.js"

const capture = (state: SessionState, command: Command & { readonly _tag: "Capture" }): Decision => {
  if (state.closed) return Either.left(rejected("moved"))
  const { fromEdit, message: item, now } = command
  const sessionId = state.sessionId ?? command.sessionId
  const user = userIdOf(item.provider, item.senderId)
  const message = makeInboundMessage({
    id: messageIdOf(item.provider, item.providerMessageId),
    sessionId,
    seq: nextSeq(state),
    provider: item.provider,
    providerMessageId: item.providerMessageId,
    sender: user,
    chat: item.chatId,
    text: item.text,
    kind: item.kind,
    forwardedFrom: item.forwardedFrom,
    replyTo: item.replyTo,
    attachments: item.attachments,
    links: item.links,
    mediaGroup: item.mediaGroup,
    receivedAt: now,
    sentAt: item.sentAt
  })
  const opening: Array<Event> = state.sessionId === null
    ? [{ _tag: "SessionOpened", sessionId, user, provider: item.provider, chat: item.chatId, openedAt: now }]
    : []
  // Recorded with the message, so that an older edit arriving later changes nothing.
  const edited: Array<Event> = fromEdit === null
    ? []
    : [{ _tag: "MessageEdited", messageId: message.id, sessionId, text: item.text, links: item.links, editedAt: fromEdit.editedAt }]
  return Either.right([...opening, { _tag: "MessageReceived", message }, ...edited])
}

const edit = (state: SessionState, { edit: item }: Command & { readonly _tag: "Edit" }): Decision => {
  const id = messageIdOf(item.provider, item.providerMessageId)
  const message = state.messages.find((m) => m.id === id)
  if (message === undefined || state.sessionId === null) return Either.left(rejected("not-in-session"))
  // An edit arriving after its message was forgotten brings none of its words back.
  if (state.erased.has(id)) return Either.left(rejected("edit-ignored", "the message was forgotten"))
  if (message.sender !== userIdOf(item.provider, item.senderId)) {
    return Either.left(rejected("edit-ignored", "the edit comes from someone other than the sender"))
  }
  const editedAt = DateTime.formatIso(item.editedAt)
  const newest = state.editedAt.get(id)
  if (newest !== undefined && editedAt < newest) {
    return Either.left(rejected("edit-ignored", "a newer edit of the message is already recorded"))
  }
  // The same text from a newer edit is still recorded: its time keeps older edits out.
  if (senderText(state, message) === item.text && editedAt === newest) {
    return Either.left(rejected("edit-ignored", "the text did not change"))
  }
  return Either.right([{ _tag: "MessageEdited", messageId: id, sessionId: state.sessionId, text: item.text, links: item.links, editedAt: item.editedAt }])
}

const close = (state: SessionState, { now, reason }: Command & { readonly _tag: "Close" }): Decision => {
  if (state.sessionId === null) return Either.left(rejected("no-session"))
  if (state.closed) return Either.left(rejected("already-closed"))
  return Either.right([{ _tag: "SessionClosed", sessionId: state.sessionId, reason, messageCount: state.messages.length, closedAt: now }])
}

/** Decide a command against the session's state. */
export const decide = (state: SessionState, command: Command): Decision => {
  switch (command._tag) {
    case "Capture":
      return capture(state, command)
    case "Edit":
      return edit(state, command)
    case "Media":
      return decideMedia(state, command)
    case "Close":
      return close(state, command)
    case "RecordPlans":
      return decideRecordPlans(state, command)
    case "FailPlan":
      return decideFailPlan(state, command)
    case "Answer":
      return decideAnswer(state, command)
    case "MoveNote":
      return decideMoveNote(state, command)
    case "SplitNote":
      return decideSplitNote(state, command)
    case "DiscardNote":
      return decideDiscardNote(state, command)
    case "Erase":
      return decideErase(state, command)
  }
}

/** The session decider as a value, for the runner and the specifications. */
export const sessionDecider: Decider<SessionState, Command, Event, Rejected> = { decide, evolve, initialState: empty }
