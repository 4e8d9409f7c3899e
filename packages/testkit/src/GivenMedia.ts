/** Event builders for what happened to a message's attachments, with fixed values so tests are exact. */
import type { Event } from "@verbatim/domain/Events"
import { MessageId, SessionId } from "@verbatim/domain/Ids"
import { at } from "./internal/at.js"

/** Where attachment `attachment` of message `seq` of a session is. */
const attachmentOf = (sessionId: string, seq: number, attachment: number) => ({
  messageId: MessageId.make(`${sessionId}/${seq}`),
  sessionId: SessionId.make(sessionId),
  attachment
})

export const mediaFetched = (sessionId: string, seq: number, attachment: number, sha256: string, seconds: number): Event => ({
  _tag: "MediaFetched",
  ...attachmentOf(sessionId, seq, attachment),
  sha256,
  size: 4096,
  mimeType: "audio/ogg",
  fetchedAt: at(seconds)
})

export const mediaFailed = (
  sessionId: string,
  seq: number,
  attachment: number,
  reason: string,
  options: { readonly stage?: "fetch" | "transcribe"; readonly permanent?: boolean; readonly attempt?: number; readonly seconds?: number } = {}
): Event => ({
  _tag: "MediaFailed",
  ...attachmentOf(sessionId, seq, attachment),
  stage: options.stage ?? "transcribe",
  permanent: options.permanent ?? true,
  reason,
  attempt: options.attempt ?? 1,
  failedAt: at(options.seconds ?? 650)
})

export const mediaTranscribed = (sessionId: string, seq: number, attachment: number, text: string, seconds: number, model = "whisper-1"): Event => ({
  _tag: "MediaTranscribed",
  ...attachmentOf(sessionId, seq, attachment),
  source: "speech",
  text,
  model,
  language: "en",
  segments: [{ start: 0, end: 3, text, noSpeechProb: 0.02, silent: false }],
  transcribedAt: at(seconds)
})
