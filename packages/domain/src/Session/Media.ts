/** Decisions on a message's attachments: their bytes stored, their text read, or a failure recorded. */
import { Either } from "effect"
import type { Event } from "../Events.js"
import { noStatus } from "../Media.js"
import { type Command, type Decision, rejected } from "./Commands.js"
import type { SessionState } from "./State.js"

export const decideMedia = (state: SessionState, command: Command & { readonly _tag: "Media" }): Decision => {
  const { attachment, messageId, now, outcome } = command
  const message = state.messages.find((m) => m.id === messageId)
  const media = state.media.get(messageId)
  if (message === undefined || media === undefined || state.sessionId === null || attachment >= message.attachments.length) {
    return Either.left(rejected("not-in-session", "no such attachment in the session"))
  }
  const status = media.statuses[attachment] ?? noStatus
  const at = { messageId, sessionId: state.sessionId, attachment }
  switch (outcome._tag) {
    case "Fetched":
      if (status.fetched?.sha256 === outcome.sha256) return Either.left(rejected("already-recorded", "the bytes are already stored"))
      return Either.right<ReadonlyArray<Event>>([{ _tag: "MediaFetched", ...at, sha256: outcome.sha256, size: outcome.size, mimeType: outcome.mimeType, fetchedAt: now }])
    case "Failed": {
      const previous = status.failure
      if (previous?.permanent === true && previous.stage === outcome.stage && previous.reason === outcome.reason) {
        return Either.left(rejected("already-recorded", "the failure is already recorded"))
      }
      const attempt = previous !== null && previous.stage === outcome.stage ? previous.attempt + 1 : 1
      return Either.right<ReadonlyArray<Event>>([{
        _tag: "MediaFailed",
        ...at,
        stage: outcome.stage,
        permanent: outcome.permanent,
        reason: outcome.reason,
        attempt,
        failedAt: now
      }])
    }
    case "Read":
      if (status.derived?.model === outcome.model && status.derived.text === outcome.text) {
        return Either.left(rejected("already-recorded", "the same text from the same model is already recorded"))
      }
      return Either.right<ReadonlyArray<Event>>([{
        _tag: "MediaTranscribed",
        ...at,
        source: outcome.source,
        text: outcome.text,
        model: outcome.model,
        language: outcome.language,
        segments: outcome.segments,
        ...(outcome.blank === undefined ? {} : { blank: outcome.blank }),
        ...(outcome.pages === undefined ? {} : { pages: outcome.pages }),
        transcribedAt: now
      }])
  }
}
