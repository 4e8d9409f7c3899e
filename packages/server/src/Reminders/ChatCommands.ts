/**
 * The reminder commands of the chat: `/tz` shows the sender's time zone or sets it (a command on
 * their zone stream, recorded under the message's key), and `/reminders` lists those whose time
 * is still to be given and the upcoming ones, with a Cancel button each. Commands, never content; each reply is queued once.
 */
import type { NewMessage } from "@verbatim/domain/Inbound/Inbound"
import { ReplyId, type UserId, userIdOf } from "@verbatim/domain/Ids"
import { ZoneCommand, zoneDecider } from "@verbatim/domain/Reminders/Zone"
import { closeZones, zoneName } from "@verbatim/domain/Reminders/Zones"
import { cancelButtons, upcomingText, zoneText } from "@verbatim/domain/Reminders/Text"
import { zoneStream } from "@verbatim/domain/Streams"
import type { IdempotencyKey } from "@verbatim/projections/EventStore"
import { ReminderBook } from "@verbatim/projections/ReminderBook"
import { DateTime, Effect } from "effect"
import * as Replies from "../Replies.js"
import * as Runner from "../Runner.js"
import { TimeZones } from "../TimeZones.js"

/** How many upcoming reminders `/reminders` lists. */
const listed = 10

const reply = (item: NewMessage, command: string, text: string, buttons: ReadonlyArray<{ readonly label: string; readonly data: string }> = []) =>
  Replies.queue({
    replyId: ReplyId.make(`${command}:${item.provider}:${item.providerMessageId}`),
    user: userIdOf(item.provider, item.senderId),
    provider: item.provider,
    chat: item.chatId,
    text,
    buttons,
    questionId: null
  })

/**
 * Set a user's time zone by name, a command on their zone stream (recorded under `keys`, when a
 * message asked): what to tell them, set, the same already, or which names are close.
 */
export const setZone = Effect.fn("Reminders.setZone")(function*(user: UserId, name: string, keys: ReadonlyArray<IdempotencyKey>) {
  const now = yield* DateTime.now
  return yield* Runner.run(zoneDecider, zoneStream(user), () => Effect.succeed(ZoneCommand.Set({ user, name, now })), { keys, keep: false }).pipe(
    Effect.flatMap((done) =>
      done._tag === "Appended"
        ? Effect.succeed(zoneText.set(done.state ?? name))
        : Effect.map(Effect.flatMap(TimeZones, (zones) => zones.zoneOf(user)), zoneText.set)),
    Effect.catchTag("Rejected", (rejection) =>
      Effect.succeed(
        rejection.reason === "unchanged" ? zoneText.same(zoneName(name) ?? name) : zoneText.unknown(name, closeZones(name))
      ))
  )
})

/** `/tz` or `/tz NAME`: true when this message's reply was queued now. */
export const timeZone = Effect.fn("Reminders.timeZone")(function*(item: NewMessage, name: string | null) {
  const user = userIdOf(item.provider, item.senderId)
  if (name === null) return yield* reply(item, "tz", zoneText.current(yield* Effect.flatMap(TimeZones, (zones) => zones.zoneOf(user))))
  return yield* reply(item, "tz", yield* setZone(user, name, [{ provider: item.provider, providerMessageId: item.providerMessageId }]))
})

/** `/reminders`: true when this message's reply was queued now. */
export const upcoming = Effect.fn("Reminders.upcoming")(function*(item: NewMessage) {
  const user = userIdOf(item.provider, item.senderId)
  const zone = yield* Effect.flatMap(TimeZones, (zones) => zones.zoneOf(user))
  const reminders = yield* Effect.flatMap(ReminderBook, (book) => book.of(user, ["asking", "scheduled"], listed))
  return yield* reply(item, "reminders", upcomingText(reminders, zone), cancelButtons(reminders))
})
