/** One planning request per chunk of a session, fitted to the token budget: messages survive, contacts give way. */
import { chunkSession } from "@verbatim/domain/ChunkSession"
import { FitError, fitPrompt } from "@verbatim/domain/FitPrompt"
import { droppable, type PromptPart, required } from "@verbatim/domain/PromptPart"
import type { TokenCounter } from "@verbatim/domain/TokenCounter"
import { truncateText } from "@verbatim/domain/TruncateText"
import { Array as Arr, DateTime, type Duration, Either } from "effect"
import type { ModelRequest, ModelTool } from "./LanguageModel.js"
import {
  type Contact,
  contactLine,
  dataLine,
  frame,
  messageLine,
  type PlanningMessage,
  renderUserContent
} from "./RenderRequest.js"

/** Limits of one request. `promptBudget` and `contentBudget` come from the domain's `promptBudget`. */
export interface RequestSettings {
  readonly maxTokens: number
  readonly timeout: Duration.Duration
  /** Tokens for system prompt, tool and user content together (`PromptBudget.prompt`). */
  readonly promptBudget: number
  /** Tokens for user content alone (`PromptBudget.content`). */
  readonly contentBudget: number
  /** Content tokens a chunk leaves free for contacts. */
  readonly contactReserve: number
  /** At most this many contacts are ever shown, most recently used first. */
  readonly maxContacts: number
  readonly count: TokenCounter
  /** The prompt version's tool. */
  readonly tool: ModelTool
  /** The sender's time zone, named in the request when the prompt plans reminders; null otherwise. */
  readonly zone: string | null
}

/** Consecutive messages planned together, in session order. */
export type PlanningChunk = Arr.NonEmptyReadonlyArray<PlanningMessage>

/** A request plus what the plan job records about it. */
export interface BuiltRequest {
  readonly request: ModelRequest
  readonly chunk: { readonly fromSeq: number; readonly toSeq: number }
  readonly truncation: { readonly contactsDropped: number; readonly cutSeq: number | null }
}

/** The tool definition as counted against the budget (the `toolTokens` of the budget arithmetic). */
export const toolPromptText = (tool: ModelTool): string =>
  JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })

/** The message shortened so its whole line fits `room` tokens, marked as cut. */
const cutToFit = (message: PlanningMessage, room: number, count: TokenCounter): PlanningMessage => {
  const overhead = count(messageLine({ ...message, text: "", cut: true }))
  const text = truncateText(message.text, Math.max(0, room - overhead), (t) => count(dataLine(t)))
  return { ...message, text, cut: true }
}

/** Most recently used first; ties by id, so the order never depends on how the caller listed them. */
const byRecentUse = (contacts: ReadonlyArray<Contact>): ReadonlyArray<Contact> => {
  const used = (c: Contact) => (c.lastUsedAt === undefined ? -Infinity : DateTime.toEpochMillis(c.lastUsedAt))
  return [...contacts].sort((a, b) => used(b) - used(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/**
 * Splits a session into chunks whose messages fit `contentBudget` less the fixed frame and the
 * contact reserve. A message too large for any chunk is alone in its chunk, cut and marked.
 */
export const chunkMessages = (
  messages: Arr.NonEmptyReadonlyArray<PlanningMessage>,
  settings: RequestSettings
): ReadonlyArray<PlanningChunk> => {
  const { count } = settings
  const maxSeq = Math.max(...messages.map((m) => m.seq))
  // The closing line of a chunk is never longer than the session's plus one more seq's digits.
  const fixed = count(frame.contactsOpen + frame.contactsClose + frame.messagesOpen(settings.zone) + frame.messagesClose) +
    count(frame.closing(messages)) + count(String(maxSeq))
  const budget = Math.max(0, settings.contentBudget - settings.contactReserve - fixed)
  const line = (message: PlanningMessage) => ({ key: String(message.seq), text: messageLine(message), message })
  // A message too large for any chunk is cut once, as its text shown cut (not its line, then its text).
  const cut = (part: ReturnType<typeof line>, room: number) => line(cutToFit(part.message, room, count))
  return chunkSession(messages.map(line), budget, count, cut)
    .map((chunk) => chunk.messages.map((part) => part.message))
    .filter((chunk): chunk is Array<PlanningMessage> & PlanningChunk => Arr.isNonEmptyReadonlyArray(chunk))
}

/**
 * Fits one chunk: the system prompt and tool stay whole, every message stays (at most one shown
 * cut), contacts are dropped whole, least recently used first. Fails when the messages alone
 * cannot fit even with one cut.
 */
export const buildRequest = (
  system: string,
  contacts: ReadonlyArray<Contact>,
  messages: PlanningChunk,
  settings: RequestSettings
): Either.Either<BuiltRequest, FitError> => {
  const { count } = settings
  const shown = byRecentUse(contacts).slice(0, settings.maxContacts)
  const contactParts = shown.map((contact, index) =>
    droppable(`contact:${contact.id}`, contactLine(contact), shown.length - 1 - index)
  )
  const messageParts = messages.map((message) => ({ ...required(`seq:${message.seq}`, messageLine(message)), message }))
  const parts: ReadonlyArray<PromptPart> = [
    required("contacts-open", frame.contactsOpen),
    ...contactParts,
    required("contacts-close", frame.contactsClose),
    required("messages-open", frame.messagesOpen(settings.zone)),
    ...messageParts,
    required("messages-close", frame.messagesClose),
    required("closing", frame.closing(messages))
  ]
  return Either.flatMap(
    fitPrompt({ system, tools: [required(settings.tool.name, toolPromptText(settings.tool))], messages: parts }, settings.promptBudget, count),
    (fitted) => {
      const cutPart = messageParts.find((part) => part.key === fitted.report.cut)
      if (fitted.report.cut !== null && cutPart === undefined) {
        return Either.left(
          new FitError({
            reason: "required-exceeds-budget",
            budget: settings.promptBudget,
            required: fitted.report.tokens,
            message: `Only the frame of the request could be cut (${fitted.report.cut}); the messages do not fit`
          })
        )
      }
      const kept = new Set(fitted.messages.map((part) => part.key))
      const keptContacts = shown.filter((contact) => kept.has(`contact:${contact.id}`))
      const cutText = fitted.messages.find((part) => part.key === fitted.report.cut)?.text ?? ""
      const finalMessages = messages.map((message) =>
        cutPart?.message === message ? cutToFit(message, count(cutText), count) : message
      )
      const userContent = renderUserContent(keptContacts, finalMessages, settings.zone)
      const cutSeq = finalMessages.find((message) => message.cut === true)?.seq ?? null
      return Either.right({
        request: { system, tool: settings.tool, userContent, maxTokens: settings.maxTokens, timeout: settings.timeout },
        chunk: { fromSeq: messages[0].seq, toSeq: messages[messages.length - 1]!.seq },
        truncation: { contactsDropped: contacts.length - keptContacts.length, cutSeq }
      })
    }
  )
}
