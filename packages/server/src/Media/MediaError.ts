/**
 * Why an attachment's bytes or text could not be had. `permanent`: trying again cannot help
 * (the file expired, is too large, is of a kind no reader takes); otherwise a later try may.
 */
import { Data } from "effect"

export class MediaError extends Data.TaggedError("MediaError")<{
  readonly stage: "fetch" | "transcribe"
  readonly permanent: boolean
  /** Plain words for the user and the audit: `"the file is larger than Telegram lets bots download (20 MB)"`. */
  readonly reason: string
}> {}
