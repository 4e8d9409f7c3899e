/**
 * Upcasters: old encoded payloads are lifted to the current schema version on read, never
 * rewritten in the log. Each upcaster takes one version to the next.
 */
import type { EventType } from "@verbatim/domain/Events"

/** Lifts an encoded payload of version `from` to `from + 1`. */
export type Upcaster = (payload: Record<string, unknown>) => Record<string, unknown>

/**
 * MessageReceived v0 was recorded before captions, transcripts, forwards and replies were
 * captured: every message was plain text, and an empty text meant media nobody transcribed.
 */
const messageReceivedV0: Upcaster = (payload) => {
  const message = payload["message"] as Record<string, unknown>
  const text = typeof message["text"] === "string" ? message["text"] : ""
  return {
    ...payload,
    message: {
      ...message,
      text,
      kind: text === "" ? "media-without-text" : "text",
      forwardedFrom: null,
      replyTo: null
    }
  }
}

/**
 * MessageReceived v1 was recorded before attachments, links and albums were kept: the references
 * were dropped at capture, so an old message has none to fetch.
 */
const messageReceivedV1: Upcaster = (payload) => ({
  ...payload,
  message: { ...(payload["message"] as Record<string, unknown>), attachments: [], links: [], mediaGroup: null }
})

/** MessageEdited v1 was recorded before links were kept beside the text. */
const messageEditedV1: Upcaster = (payload) => ({ ...payload, links: [] })

/**
 * PlanProduced v1 named at most one superseded plan, paired with the new plan's chunk by index;
 * v2 lists them all.
 */
const planProducedV1: Upcaster = (payload) => {
  const supersedes = payload["supersedes"]
  return { ...payload, supersedes: typeof supersedes === "string" ? [supersedes] : [] }
}

/** PlanProduced v2 was recorded before the model call's duration was kept: it is not known. */
const planProducedV2: Upcaster = (payload) => ({ ...payload, durationMs: null })

/** Upcasters by event type, indexed by the version they lift from. */
export const upcasters: { readonly [K in EventType]?: Readonly<Record<number, Upcaster>> } = {
  MessageReceived: { 0: messageReceivedV0, 1: messageReceivedV1 },
  MessageEdited: { 1: messageEditedV1 },
  PlanProduced: { 1: planProducedV1, 2: planProducedV2 }
}

/** Lift a payload from `version` to `current`; undefined when a step is missing. */
export const upcast = (
  type: EventType,
  version: number,
  current: number,
  payload: Record<string, unknown>
): Record<string, unknown> | undefined => {
  let lifted = payload
  for (let v = version; v < current; v++) {
    const step = upcasters[type]?.[v]
    if (step === undefined) return undefined
    lifted = step(lifted)
  }
  return lifted
}
