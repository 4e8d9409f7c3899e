/**
 * What a forgetting leaves to say it happened, with none of the words: when a note went. Read from
 * the user's `forget-<user>` stream and the sessions its forgettings erased, so only that user's
 * forgettings are looked at and another user's note stays unknown.
 */
import type { NoteId, UserId } from "@verbatim/domain/Ids"
import { forgetStream, sessionStream } from "@verbatim/domain/Streams"
import { EventStore } from "@verbatim/projections/EventStore"
import { DateTime, Effect, Option } from "effect"

/** When `user`'s note `noteId` was forgotten: by forgetting it, or its person or every message it held. */
export const noteForgottenAt = Effect.fn("Trace.noteForgottenAt")(function*(noteId: NoteId, user: UserId) {
  const store = yield* EventStore
  const forgettings = (yield* store.readStream(forgetStream(user))).flatMap((e) => (e.event._tag === "Forgotten" ? [e.event] : []))
  for (const forgotten of forgettings) {
    if (forgotten.target._tag === "Note" && forgotten.target.noteId === noteId) return Option.some(forgotten.forgottenAt)
  }
  const erasedAt: Array<DateTime.Utc> = []
  for (const sessionId of new Set(forgettings.flatMap((f) => f.sessions))) {
    for (const { event } of yield* store.readStream(sessionStream(sessionId))) {
      if (event._tag === "MessagesErased" && event.notes.includes(noteId)) erasedAt.push(event.erasedAt)
    }
  }
  // A note loses its messages to each forgetting that takes some; it went with the last.
  return erasedAt.length === 0 ? Option.none() : Option.some(erasedAt.reduce((a, b) => DateTime.max(a, b)))
})
