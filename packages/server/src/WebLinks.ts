/** Where the web pages are reached from outside, for the links the bot and the answers send. */
import { Config, Context, Effect, Layer, Option } from "effect"

export class WebLinks extends Context.Tag("@verbatim/server/WebLinks")<WebLinks, {
  /** Where the pages are reached from outside (`VERBATIM_PUBLIC_URL`), when set. */
  readonly publicUrl: Option.Option<string>
}>() {
  static readonly layer = Layer.effect(
    WebLinks,
    Effect.map(
      Config.option(Config.string("VERBATIM_PUBLIC_URL")),
      (url) => WebLinks.of({ publicUrl: Option.map(Option.filter(url, (u) => u.trim() !== ""), (u) => u.trim().replace(/\/+$/, "")) })
    )
  )
}

/** Where a note's page marks characters `start`…`end` of one of its messages (a quote, a reminder's words). */
export const markedLink = (base: string, noteId: string, words: { readonly messageId: string; readonly start: number; readonly end: number }) =>
  `${base}/notes/${encodeURIComponent(noteId)}?mark=${encodeURIComponent(`${words.messageId}:${words.start}-${words.end}`)}`
