/** Branded identifiers shared by every package. */
import { Schema } from "effect"

export const MessageId = Schema.String.pipe(Schema.brand("MessageId"))
export type MessageId = typeof MessageId.Type

export const SessionId = Schema.String.pipe(Schema.brand("SessionId"))
export type SessionId = typeof SessionId.Type

/** The person who forwards messages to the bot, e.g. `telegram:100000001`. */
export const UserId = Schema.String.pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type

/** A person notes are about (a contact of one user). */
export const PersonId = Schema.String.pipe(Schema.brand("PersonId"))
export type PersonId = typeof PersonId.Type

export const NoteId = Schema.String.pipe(Schema.brand("NoteId"))
export type NoteId = typeof NoteId.Type

export const QuestionId = Schema.String.pipe(Schema.brand("QuestionId"))
export type QuestionId = typeof QuestionId.Type

export const PlanId = Schema.String.pipe(Schema.brand("PlanId"))
export type PlanId = typeof PlanId.Type

export const ReplyId = Schema.String.pipe(Schema.brand("ReplyId"))
export type ReplyId = typeof ReplyId.Type

/** A reminder's id: the message and the characters of its quote, so a plan that finds it again names the same reminder. */
export const ReminderId = Schema.String.pipe(Schema.brand("ReminderId"))
export type ReminderId = typeof ReminderId.Type

/** A question a user asked of their notes (`/ask`, the web box, `POST /api/ask`). */
export const AskId = Schema.String.pipe(Schema.brand("AskId"))
export type AskId = typeof AskId.Type

/** Where a message came from: a chat provider's webhook, or the web pages' compose box and `POST /api/messages`. */
export const Provider = Schema.Literal("telegram", "whatsapp", "web")
export type Provider = typeof Provider.Type

/** The providers that are chats with a webhook and an API to send through. */
export type ChatProvider = Exclude<Provider, "web">

/** A captured message's id: `provider:providerMessageId`, so the provider's id finds it by primary key. */
export const messageIdOf = (provider: Provider, providerMessageId: string): MessageId =>
  MessageId.make(`${provider}:${providerMessageId}`)

/**
 * `provider:senderId`, the key used for allow-lists and tenancy. The web has no accounts of its
 * own: a message composed on the page is sent by the signed-in user, whose whole id is its sender
 * id, so a Telegram user writing on the page files into the same notebook.
 */
export const userIdOf = (provider: Provider, senderId: string): UserId =>
  UserId.make(provider === "web" ? senderId : `${provider}:${senderId}`)

/** The user the operator composes as on the page (or through `POST /api/messages` without a user). */
export const operatorUser: UserId = UserId.make("web:operator")

/**
 * A source of fresh ids, passed to a decision on its command. `decide` draws from it in a fixed
 * order, so a counting supply (`note_1`, `note_2` …) makes a decision exact in tests, and the
 * service's random one keeps ids unique across processes.
 */
export interface IdSupply {
  readonly next: (prefix: string) => string
}

/** Counters per prefix: `note_1`, `note_2`, … (shared by every decision that draws from it). */
export const countingIds = (): IdSupply => {
  const counters = new Map<string, number>()
  return {
    next: (prefix) => {
      const n = (counters.get(prefix) ?? 0) + 1
      counters.set(prefix, n)
      return `${prefix}_${n}`
    }
  }
}
