/**
 * What the service does with each normalised webhook item: capture, edit, answer, or nothing.
 * Senders not on the allow-list get one polite refusal and nothing of theirs is stored.
 */
import { ReplyId, type UserId, userIdOf } from "@verbatim/domain/Ids"
import { botCommand } from "@verbatim/domain/Inbound/Commands"
import type { Answer, Ignored, Inbound } from "@verbatim/domain/Inbound/Inbound"
import { parseReminderData } from "@verbatim/domain/Reminders/Text"
import * as ReplyText from "@verbatim/domain/ReplyText"
import { EventStore, type StoreError } from "@verbatim/projections/EventStore"
import type { FoldCache } from "@verbatim/projections/FoldCache"
import type { ReminderBook } from "@verbatim/projections/ReminderBook"
import type { SessionLookups } from "@verbatim/projections/SessionLookups"
import { Effect } from "effect"
import * as Answers from "./Answers.js"
import type { IdGenerator } from "../IdGenerator.js"
import * as Replies from "../Replies.js"
import * as Ingest from "./Ingest.js"
import * as Metrics from "../Metrics.js"
import * as ReminderActions from "../Reminders/Actions.js"
import { ServerConfig } from "../ServerConfig.js"
import type { TimeZones } from "../TimeZones.js"
import type { WebLinks } from "../WebLinks.js"
import { SignInLinks } from "../SignInLinks.js"
import { DirectReplies } from "../Providers/DirectReplies.js"

/** What handling one item did, for logs. */
export type Handled = "captured" | "duplicate" | "closed" | "helped" | "edited" | "edit-ignored" | "answered" | "stranger" | "ignored"

export type Requirements =
  | EventStore
  | FoldCache
  | SessionLookups
  | ReminderBook
  | TimeZones
  | IdGenerator
  | ServerConfig
  | DirectReplies
  | SignInLinks
  | WebLinks

/** Outcomes after which a question can no longer be answered: its buttons are taken away. */
const settled: ReadonlySet<Answers.AnswerOutcome["_tag"]> = new Set(["Filed", "AlreadyAnswered", "Withdrawn", "AlreadyFiled"])

/**
 * A button press: the answer recorded (or politely refused), the confirmation queued in the
 * outbox under the press's idempotency key, so a redelivered press queues nothing more.
 */
const answer = (item: Answer) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const key = { provider: item.provider, providerMessageId: item.providerMessageId }
    if (yield* store.isRecorded(key)) return "duplicate" as const
    const user = userIdOf(item.provider, item.senderId)
    const reminder = parseReminderData(item.data)
    if (reminder !== null) return yield* reminderPress(item, key, user, reminder)
    const parsed = ReplyText.parseAnswerData(item.data)
    const outcome: Answers.AnswerOutcome = parsed === null
      ? { _tag: "NotFound" }
      : yield* Answers.answer(parsed.questionId, { _tag: "Option", index: parsed.option }, user)
    const text = Answers.outcomeText(outcome)
    const direct = yield* DirectReplies
    // A press on a question answered before is told so in the button's own notice, where there is
    // one (Telegram), not by a new chat message.
    if (outcome._tag === "Filed" || item.callbackId === null) {
      const queued = yield* Answers.confirmation(user, item.provider, item.chatId, text)
      if (queued._tag === "ReplyQueued") yield* Replies.queue(queued, [key])
    }
    if (item.callbackId !== null) yield* direct.acknowledgeCallback(item.callbackId, text)
    // An answered question's buttons go, so the chat shows it cannot be answered again.
    if (item.askedIn !== null && settled.has(outcome._tag)) yield* direct.removeButtons(item.chatId, item.askedIn)
    return "answered" as const
  })

/** A press on a delivered reminder's button: done or snoozed, told in the button's notice (Telegram) or a reply. */
const reminderPress = (
  item: Answer,
  key: { readonly provider: Answer["provider"]; readonly providerMessageId: string },
  user: UserId,
  pressed: NonNullable<ReturnType<typeof parseReminderData>>
) =>
  Effect.gen(function*() {
    const text = yield* ReminderActions.press(pressed.reminderId, pressed.action, user, item.callbackId === null ? [] : [key])
    const direct = yield* DirectReplies
    if (item.callbackId === null) {
      yield* Replies.queue({
        replyId: ReplyId.make(`press:${item.provider}:${item.providerMessageId}`),
        user,
        provider: item.provider,
        chat: item.chatId,
        text,
        buttons: [],
        questionId: null
      }, [key])
    } else {
      yield* direct.acknowledgeCallback(item.callbackId, text)
      // The way to the page leaves the question's other choices in place.
      if (item.askedIn !== null && pressed.action !== "page") yield* direct.removeButtons(item.chatId, item.askedIn)
    }
    return "answered" as const
  })

/**
 * An item acknowledged and not acted on (a status, a reaction, an update kind not captured):
 * counted by provider and kind, logged at debug level (WhatsApp sends a status for every reply).
 */
export const ignore = (item: Ignored) =>
  Effect.zipRight(
    Metrics.ignored(item.provider, item.kind),
    Effect.logDebug("webhook item ignored").pipe(Effect.annotateLogs({ provider: item.provider, kind: item.kind, reason: item.reason }))
  ).pipe(Effect.as("ignored" as const))

/** Handle one item; resolves once whatever it appends has committed. */
export const handle = (item: Inbound): Effect.Effect<Handled, StoreError, Requirements> =>
  Effect.gen(function*() {
    if (item._tag === "Ignored") return yield* ignore(item)
    const settings = yield* ServerConfig
    // The web's messages are let in where they arrive: by the page's sign-in or the API token.
    const provider = item.provider
    if (provider !== "web" && !settings.allowedSenders.has(userIdOf(provider, item.senderId))) {
      yield* Effect.logWarning("refused").pipe(
        Effect.annotateLogs({ refused: item._tag, provider, sender: userIdOf(provider, item.senderId), reason: "the sender is not on the allow-list" })
      )
      yield* Effect.flatMap(DirectReplies, (r) => r.refuseStranger(provider, item.chatId, item.senderId))
      return "stranger" as const
    }
    switch (item._tag) {
      case "NewMessage": {
        // `/web` is answered here, with a sign-in link only the web pages' keys can make; every other command in capture.
        if (botCommand(item, yield* Ingest.botUsername) === "web") return yield* Effect.flatMap(SignInLinks, (links) => links.reply(item))
        const captured = yield* Ingest.capture(item)
        return captured._tag === "Recorded"
          ? "captured" as const
          : captured._tag === "SessionClosed"
          ? "closed" as const
          : captured._tag === "Helped"
          ? "helped" as const
          : "duplicate" as const
      }
      case "Edit": {
        const edited = yield* Ingest.edit(item)
        return edited._tag === "Edited" ? "edited" as const : edited._tag === "Recorded" ? "captured" as const : "edit-ignored" as const
      }
      case "Answer":
        return yield* answer(item)
    }
  }).pipe(
    Effect.tap((handled) =>
      Effect.logDebug("webhook item").pipe(Effect.annotateLogs({ kind: item._tag, handled }))
    ),
    Effect.withSpan("Dispatch.handle", { attributes: { kind: item._tag } })
  )
