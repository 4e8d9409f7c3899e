/** Forgetting's events in the shape the deciders record them, for projection and query tests. */
import type { Event } from "@verbatim/domain/Events"
import { MessageId, NoteId, PersonId, SessionId } from "@verbatim/domain/Ids"
import { at, user } from "./Given.js"

/** Messages `seqs` of a session erased by forgetting `forgetId`; `notes` held them. */
export const messagesErased = (sessionId: string, seqs: ReadonlyArray<number>, notes: ReadonlyArray<string>, forgetId = `forget-${sessionId}`): Event => ({
  _tag: "MessagesErased",
  sessionId: SessionId.make(sessionId),
  user,
  forgetId,
  messageIds: seqs.map((seq) => MessageId.make(`${sessionId}/${seq}`)),
  notes: notes.map((n) => NoteId.make(n)),
  questions: [],
  replies: [],
  erasedAt: at(1100)
})

/** Person `personId` forgotten on the user's people stream. */
export const personForgotten = (personId: string, forgetId = `forget-${personId}`): Event => ({
  _tag: "PersonForgotten",
  personId: PersonId.make(personId),
  user,
  forgetId,
  forgottenAt: at(1110)
})
