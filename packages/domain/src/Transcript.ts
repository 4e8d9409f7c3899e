/**
 * Turning a transcriber's timed segments into the text a voice note reads as. Whisper writes words
 * onto silence ("Thanks for watching!"), so a segment it itself thinks is probably not speech is
 * kept in the event, flagged, and left out of the text.
 */
import type { TranscriptSegment } from "./Media.js"

/** Whisper's own thresholds for calling a segment silence (`no_speech_threshold`, `logprob_threshold`). */
export const noSpeechThreshold = 0.6
export const logprobThreshold = -1

/** A segment as a transcriber reports it; either probability may be missing (servers differ). */
export interface RawSegment {
  readonly start: number
  readonly end: number
  readonly text: string
  readonly noSpeechProb: number | null
  readonly avgLogprob: number | null
}

/**
 * Probably silence: the no-speech probability is over the threshold and the words came with low
 * confidence (or the server gave no confidence to weigh).
 */
export const isSilent = (segment: RawSegment): boolean =>
  segment.noSpeechProb !== null && segment.noSpeechProb > noSpeechThreshold &&
  (segment.avgLogprob === null || segment.avgLogprob < logprobThreshold)

/** The segments as the event keeps them: trimmed text, silence flagged. */
export const segmentsOf = (raw: ReadonlyArray<RawSegment>): ReadonlyArray<TranscriptSegment> =>
  raw.map((segment) => ({
    start: segment.start,
    end: segment.end,
    text: segment.text.trim(),
    noSpeechProb: segment.noSpeechProb,
    silent: isSilent(segment)
  }))

/**
 * What was said: the spoken segments' text, joined by a space; the whole text when the server
 * gave no segments. Empty when everything was silence.
 */
export const spokenText = (text: string, segments: ReadonlyArray<TranscriptSegment>): string =>
  segments.length === 0
    ? text.trim()
    : segments.filter((segment) => !segment.silent && segment.text !== "").map((segment) => segment.text).join(" ")
