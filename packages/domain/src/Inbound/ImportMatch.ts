/**
 * Finding an exported message among those already captured live when ids cannot say (WhatsApp
 * exports have none; a Telegram export's ids are the exporting account's, see `BotChat.ts`): the
 * same sender (the importing user, by construction), the same minute and exactly the same text.
 * Each live message stands for at most one exported message, so two identical lines in one
 * minute are both recorded unless the log has both. A message whose words were forgotten has none
 * to compare: it stands for a line of its minute no kept message claims, so an import never brings
 * forgotten words back (at the cost of skipping a new line of that minute when the export lacks
 * the forgotten one).
 */
import { DateTime } from "effect"

/** A message already in the log that an exported one may be. */
export interface Captured {
  readonly providerMessageId: string
  readonly sentAt: DateTime.Utc
  /** The sender's own words (an attachment's derived text not included). */
  readonly text: string
  /** Its words were forgotten. */
  readonly erased?: boolean
}

/** The minute an instant falls in, as [start, end). */
export const minuteOf = (at: DateTime.Utc): readonly [DateTime.Utc, DateTime.Utc] => {
  const start = Math.floor(DateTime.toEpochMillis(at) / 60_000) * 60_000
  return [DateTime.unsafeMake(start), DateTime.unsafeMake(start + 60_000)]
}

const keyOf = (at: DateTime.Utc, text: string) => `${DateTime.toEpochMillis(minuteOf(at)[0])}\u0000${text}`

/**
 * For each exported message, in the order given, the live message it is (the earliest unclaimed
 * one of its minute and text), or null when the log has none left for it.
 */
export const matchByContent = (
  messages: ReadonlyArray<{ readonly sentAt: DateTime.Utc; readonly text: string }>,
  live: ReadonlyArray<Captured>
): ReadonlyArray<Captured | null> => {
  const queues = new Map<string, Array<Captured>>()
  const byTime = [...live].sort((a, b) =>
    DateTime.toEpochMillis(a.sentAt) - DateTime.toEpochMillis(b.sentAt) || (a.providerMessageId < b.providerMessageId ? -1 : 1))
  const forgotten = new Map<number, Array<Captured>>()
  for (const captured of byTime) {
    if (captured.erased === true) {
      const minute = DateTime.toEpochMillis(minuteOf(captured.sentAt)[0])
      const queue = forgotten.get(minute) ?? []
      if (!queue.some((q) => q.providerMessageId === captured.providerMessageId)) forgotten.set(minute, [...queue, captured])
      continue
    }
    const key = keyOf(captured.sentAt, captured.text)
    const queue = queues.get(key)
    if (queue === undefined) queues.set(key, [captured])
    else if (!queue.some((q) => q.providerMessageId === captured.providerMessageId)) queue.push(captured)
  }
  const matched = messages.map((message) => queues.get(keyOf(message.sentAt, message.text))?.shift() ?? null)
  return matched.map((found, i) => found ?? forgotten.get(DateTime.toEpochMillis(minuteOf(messages[i]!.sentAt)[0]))?.shift() ?? null)
}
