/** The media part of a session's state: each attachment's status, and the readable text of its message. */
import type { MessageId } from "../Ids.js"
import { isAwaited, type MediaStatus, noStatus, readable } from "../Media.js"
import type { InboundMessage } from "../Message.js"

/** The part of a session's state these read and change. */
export interface MediaPart {
  readonly messages: ReadonlyArray<InboundMessage>
  readonly media: ReadonlyMap<MessageId, MessageMedia>
}

/** A message with attachments: the sender's own text, and where each attachment stands. */
export interface MessageMedia {
  readonly senderText: string
  readonly statuses: ReadonlyArray<MediaStatus>
}

/** The sender's own current text of a message (its readable text may add derived lines). */
export const senderText = (state: MediaPart, message: InboundMessage): string =>
  state.media.get(message.id)?.senderText ?? message.text

/** A message's media changed: its entry replaced and its readable text recomposed. */
export const withMedia = <S extends MediaPart>(state: S, messageId: MessageId, change: (media: MessageMedia) => MessageMedia): S => {
  const before = state.media.get(messageId)
  const message = state.messages.find((m) => m.id === messageId)
  if (before === undefined || message === undefined) return state
  const after = change(before)
  const text = readable(after.senderText, message.attachments, after.statuses).text
  return {
    ...state,
    media: new Map(state.media).set(messageId, after),
    messages: text === message.text ? state.messages : state.messages.map((m) => (m.id === messageId ? { ...m, text } as InboundMessage : m))
  }
}

export const withStatus = (index: number, change: (status: MediaStatus) => MediaStatus) => (media: MessageMedia): MessageMedia => ({
  ...media,
  statuses: media.statuses.map((status, i) => (i === index ? change(status) : status))
})

/** A received message, with its readable text when it has attachments. */
export const received = <S extends MediaPart>(state: S, message: InboundMessage): S => {
  if (message.attachments.length === 0) return state
  const media: MessageMedia = { senderText: message.text, statuses: message.attachments.map(() => noStatus) }
  const text = readable(message.text, message.attachments, media.statuses).text
  return {
    ...state,
    media: new Map(state.media).set(message.id, media),
    messages: state.messages.map((m) => (m.id === message.id ? { ...m, text } as InboundMessage : m))
  }
}

/** How many attachments of these messages are still awaited by a reader (see `Media.isAwaited`). */
export const awaitedIn = (state: Pick<MediaPart, "media">, messages: ReadonlyArray<InboundMessage>): number => {
  let awaited = 0
  for (const message of messages) {
    const media = state.media.get(message.id)
    if (media === undefined) continue
    message.attachments.forEach((attachment, i) => {
      if (isAwaited(attachment, media.statuses[i] ?? noStatus)) awaited += 1
    })
  }
  return awaited
}

