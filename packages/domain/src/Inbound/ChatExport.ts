/** A message read from a chat export (Telegram Desktop JSON, WhatsApp text), before it is captured. */
import { Data, type DateTime } from "effect"
import type { Link } from "../Attachment.js"
import type { MessageKind } from "../Message.js"

/** One exported message, normalised from whichever app wrote the export. */
export interface ExportedMessage {
  /** Stable across re-exports of the same chat: it becomes the provider message id, so re-imports dedupe. */
  readonly exportId: string
  /** Ids earlier versions of the parser gave this message: one recorded under any of them is already imported. */
  readonly formerExportIds?: ReadonlyArray<string>
  /** Display name of whoever wrote it in the exported chat. */
  readonly author: string
  /** The export's id of whoever wrote it (Telegram `from_id`, `user42`), when it says. */
  readonly authorId?: string
  /**
   * Set on a message the importing user wrote in their own chat with the bot: their own words
   * (as captured live), not a forward of the exported chat's author.
   */
  readonly byImporter?: boolean
  /** The original author when the exported message was itself a forward. */
  readonly forwardedFrom: string | null
  readonly sentAt: DateTime.Utc
  /** Empty for media without a caption (never dropped). */
  readonly text: string
  readonly kind: MessageKind
  /** URLs behind spans of the text (Telegram's `text_link`), offsets in the text. */
  readonly links: ReadonlyArray<Link>
  /** `exportId` of the message this one replies to, when the export says. */
  readonly replyTo: string | null
  /** Where it was read: the message index (Telegram) or the first line (WhatsApp), 1-based. */
  readonly location: string
}

/** The export formats an import reads. */
export type ExportFormat = "telegram-export" | "whatsapp-export"

const formats: ReadonlyArray<ExportFormat> = ["telegram-export", "whatsapp-export"]

/**
 * The provider message id of an exported message: the format is part of it, so two formats never
 * collide, and no id a webhook delivers starts with it.
 */
export const exportedMessageId = (format: ExportFormat, exportId: string): string => `${format}:${exportId}`

/** Whether a provider message id is an exported message's (see `exportedMessageId`). */
export const isExported = (providerMessageId: string): boolean =>
  formats.some((format) => providerMessageId.startsWith(`${format}:`))

/** An export that cannot be read; `message` names the file position and what to do. */
export class ExportError extends Data.TaggedError("ExportError")<{
  readonly format: ExportFormat
  readonly message: string
}> {}
