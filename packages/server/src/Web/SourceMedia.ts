/**
 * What a source message carried, beside the text read from it on the note page: each stretch of
 * a transcript with a player that plays exactly its seconds (`<audio>` with a media fragment,
 * no script), a photo as it was sent, and each page of a PDF drawn beside its text. Behind a
 * `<details>`, so a note with a two-hour recording does not load a page of players.
 */
import type { SourceMedia } from "@verbatim/domain/ApiResponses"
import { clock } from "@verbatim/domain/Media"
import { type Html, html } from "./Html.js"

const seconds = (n: number) => String(Math.round(n * 100) / 100)

const hear = (url: string, media: SourceMedia): Html => {
  const spoken = media.segments.filter((s) => !s.silent && s.text.trim() !== "")
  return html`<details class="media"><summary>Hear where it was said (${spoken.length} ${spoken.length === 1 ? "stretch" : "stretches"})</summary><ol class="list">${
    spoken.map((s) =>
      html`<li><audio controls preload="none" src="${url}#t=${seconds(s.start)},${seconds(s.end)}"></audio><span><span class="muted">${clock(s.start)}&ndash;${clock(s.end)}</span> ${s.text.trim()}</span></li>`
    )
  }</ol></details>`
}

const see = (url: string, media: SourceMedia): Html =>
  media.pages.length === 0
    ? html`<details class="media"><summary>See what was sent</summary><img src="${url}" alt="The ${media.kind} this text was read from" loading="lazy"></details>`
    : html`<details class="media"><summary>See the pages (${media.pages.length})</summary>${
      media.pages.map((p) => html`<figure><img src="${url}/pages/${p.page}" alt="Page ${p.page}" loading="lazy"><figcaption>Page ${p.page}</figcaption></figure>`)
    }</details>`

/** The players and pictures of a source's stored attachments. */
export const sourceMedia = (messageId: string, media: ReadonlyArray<SourceMedia>): ReadonlyArray<Html> =>
  media.map((m) => {
    const url = `/media/${encodeURIComponent(messageId)}/${m.attachment}`
    if (m.source === "speech" && m.segments.length > 0) return hear(url, m)
    if (m.source === "image" || (m.source === "document" && m.pages.length > 0)) return see(url, m)
    return html`<a class="muted" href="${url}">the ${m.kind} as sent</a>`
  })
