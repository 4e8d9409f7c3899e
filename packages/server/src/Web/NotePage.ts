/**
 * A note and its audit, the product's signature: the body drawn from the audit's segments, each
 * slice tinted by the message it came from (focus or hover it for seq, time and provider id),
 * text a transcriber or image reader wrote marked as such, each cut instruction struck through
 * where it stood, then the sources, the plan and the answer that confirmed it. Built only from
 * the segments, so it can never disagree with the body.
 */
import type { Person } from "@verbatim/domain/ApiResponses"
import type { NoteAuditView } from "@verbatim/projections/Notebook"
import { dueText, statusText } from "@verbatim/domain/Reminders/Text"
import { localTime } from "@verbatim/domain/ReadableTime"
import { history, noteForms } from "./CurationForms.js"
import { forgetNoteLink } from "./ForgetPages.js"
import { type Html, html } from "./Html.js"
import { sourceMedia } from "./SourceMedia.js"
import { dayOf, timeAt } from "./Time.js"

type Source = NoteAuditView["sources"][number]
type Slice = Extract<NoteAuditView["segments"][number], { readonly _tag: "Slice" }>

/** Characters of one message to show marked: the words an answer quoted (`?mark=<message>:<start>-<end>`). */
export interface QuoteMark {
  readonly messageId: string
  readonly start: number
  readonly end: number
}

/** Reads `?mark=`, or null when it is not one. */
export const quoteMarkOf = (text: string): QuoteMark | null => {
  const match = /^(.+):(\d+)-(\d+)$/.exec(text)
  if (match === null) return null
  const start = Number(match[2])
  const end = Number(match[3])
  return end > start ? { messageId: match[1]!, start, end } : null
}

/** `from`…`to` cut where the mark begins and ends, each piece with whether it is marked. */
const pieces = (from: number, to: number, mark: QuoteMark | null): ReadonlyArray<readonly [number, number, boolean]> => {
  if (mark === null) return [[from, to, false]]
  const cuts = [...new Set([from, Math.min(Math.max(mark.start, from), to), Math.min(Math.max(mark.end, from), to), to])].sort((a, b) => a - b)
  return cuts.slice(1).map((b, i) => [cuts[i]!, b, cuts[i]! >= mark.start && b <= mark.end] as const).filter(([a, b]) => b > a)
}

/** One slice of a source: its text, with the stretches a reader wrote marked, and the quoted words. */
const sliceText = (source: Source, start: number, end: number, mark: QuoteMark | null): ReadonlyArray<Html> =>
  source.parts.flatMap((part) => {
    const from = Math.max(start, part.start)
    const to = Math.min(end, part.end)
    if (from >= to) return []
    return pieces(from, to, mark?.messageId === source.messageId ? mark : null).map(([a, b, quoted]) => {
      const text = source.text.slice(a, b)
      const origin = part.origin
      const shown = origin._tag === "Derived"
        ? html`<mark class="derived" title="read by ${origin.model}${origin.page === undefined ? "" : `, page ${origin.page}`}">${text}</mark>`
        : html`${text}`
      return quoted ? html`<mark class="quoted" data-quoted>${shown}</mark>` : shown
    })
  })


const owner = (audit: NoteAuditView) => audit.note.owner._tag === "Unattached" ? "your own notes" : audit.note.owner.name

/** What a slice's hover or focus tells of its message: seq, time, provider id, who wrote it first, its edits. */
const sliceTitle = (source: Source, zone: string): string =>
  [
    `seq ${source.seq}`,
    localTime(source.receivedAt, zone),
    source.providerMessageId,
    ...(source.forwardedFrom === null ? [] : [`forwarded from ${source.forwardedFrom}`]),
    ...source.edits.map((e) => `edited ${localTime(e.editedAt, zone)}, was: ${e.previousText}`)
  ].join(" · ")

/** The body: separators as they are; each message's slices with its cuts where they were, a forward's led by whom it came from. */
const body = (audit: NoteAuditView, zone: string, mark: QuoteMark | null): Html => {
  const index = new Map(audit.sources.map((s, i) => [s.messageId, i]))
  const out: Array<Html> = []
  const placed = new Set<number>()
  const captioned = new Set<string>()
  const cutsOf = (messageId: string, from: number, to: number) =>
    audit.directives.flatMap((d, i) => {
      if (d.messageId !== messageId || d.start === null || placed.has(i) || d.start < from || d.start >= to) return []
      placed.add(i)
      // The words an answer or a reminder quoted may be a cut instruction: marked where they were cut.
      const cut = pieces(d.start, d.start + d.text.length, mark?.messageId === messageId ? mark : null).map(([a, b, quoted]) => {
        const text = d.text.slice(a - d.start!, b - d.start!)
        return quoted ? html`<mark class="quoted" data-quoted>${text}</mark>` : html`${text}`
      })
      return [html`<del class="cut" title="instruction to the bot, cut">${cut}</del>`]
    })
  let last = null as { readonly messageId: string; readonly end: number } | null
  const closeMessage = () => {
    if (last !== null) out.push(...cutsOf(last.messageId, last.end, Infinity))
  }
  for (const segment of audit.segments) {
    if (segment._tag === "Separator") {
      closeMessage()
      last = null
      out.push(html`<span class="sep">${segment.text}</span>`)
      continue
    }
    const slice: Slice = segment
    const i = index.get(slice.messageId) ?? 0
    const source = audit.sources[i]!
    if (last?.messageId !== slice.messageId) {
      closeMessage()
      // Whose words these are, before the first of them: a forward is not the sender's own news.
      if (source.forwardedFrom !== null && !captioned.has(source.messageId)) {
        captioned.add(source.messageId)
        out.push(html`<small class="fwd" data-forwarded>Forwarded from ${source.forwardedFrom}</small>`)
      }
    }
    out.push(...cutsOf(slice.messageId, last?.messageId === slice.messageId ? last.end : 0, slice.start))
    const title = sliceTitle(source, zone)
    out.push(html`<span class="slice s${i % 6}" data-slice="${source.seq}" tabindex="0" title="${title}">${sliceText(source, slice.start, slice.end, mark)}</span>`)
    last = { messageId: slice.messageId, end: slice.end }
  }
  closeMessage()
  return html`<div class="body" data-body>${out}</div>`
}

const sources = (audit: NoteAuditView, zone: string): Html =>
  html`<ol class="list sources">${
    audit.sources.map((s, i) =>
      html`<li><span><span class="tag s${i % 6}">seq ${s.seq}</span> ${timeAt(s.receivedAt, zone)} · <span class="muted">${s.providerMessageId}</span></span>${
        s.edits.length === 0 ? null : html`<span class="muted">edited ${s.edits.length}× (last ${timeAt(s.edits[s.edits.length - 1]!.editedAt, zone)})</span>`
      }${
        s.parts.some((p) => p.origin._tag === "Derived")
          ? html`<span class="muted">${[...new Set(s.parts.flatMap((p) => p.origin._tag === "Derived" ? [`${p.origin.source === "speech" ? "transcribed" : "read"} by ${p.origin.model}`] : []))].join(", ")}</span>`
          : null
      }${sourceMedia(s.messageId, s.media)}</li>`
    )
  }${
    audit.erased.map((e) => html`<li data-erased><span><span class="tag">seq ${e.seq}</span> erased on ${dayOf(e.erasedAt, zone)} at your request: its words are gone</span></li>`)
  }</ol>`

/** What the note page is drawn with besides the note: the form token, the viewer's time zone, what the last change did, the words an answer quoted. */
export interface NotePageContext {
  readonly csrf: string
  readonly zone: string
  readonly notice: string
  readonly mark: QuoteMark | null
}

/** The note page's main content; `people` are the note's user's (where it may be moved). */
export const notePage = (audit: NoteAuditView, people: ReadonlyArray<Person>, { csrf, mark, notice, zone }: NotePageContext): Html =>
  html`<h1>Note about ${owner(audit)}</h1>
${notice === "" ? null : html`<p role="status" class="notice">${notice}</p>`}
${audit.discardedAt === null ? null : html`<p class="notice discarded" data-discarded>Discarded on ${timeAt(audit.discardedAt, zone)}: not among ${owner(audit)}'s notes. Nothing of it is lost.</p>`}
<p class="muted">${timeAt(audit.note.recordedAt, zone)} · session <a href="/sessions/${audit.note.sessionId}">${audit.note.sessionId}</a>${
    audit.note.personId === null ? null : html` · <a href="/people/${audit.note.personId}">all notes about ${owner(audit)}</a>`
  }</p>
${body(audit, zone, mark)}
<h2>Sources</h2>
${sources(audit, zone)}
<h2>Instructions cut</h2>
${
    audit.directives.length === 0
      ? html`<p class="muted">None.</p>`
      : html`<ul class="list">${audit.directives.map((d) => html`<li>seq ${d.seq}: <del class="cut">${d.text}</del>${d.start === null ? html` <span class="muted">(no longer in the text)</span>` : null}</li>`)}</ul>`
  }
${
    audit.reminders.length === 0
      ? null
      : html`<h2>Reminders these words set</h2><ul class="list" data-reminders>${
        audit.reminders.map((r) =>
          html`<li><span>&ldquo;${r.quote}&rdquo;</span><span class="muted">${dueText(r)} · ${statusText[r.status]} · <a href="/reminders">Reminders</a></span></li>`
        )
      }</ul>`
  }
<h2>How it was filed</h2>
<p>${audit.plan === null ? "By your answer to a question." : "By the model, reading the whole conversation."}${
    audit.mergedFrom > 1 ? html` Merged from ${audit.mergedFrom} notes of the plan.` : null
  }${audit.confirmation === null ? null : html` Confirmed by your answer on ${timeAt(audit.confirmation.answeredAt, zone)}.`}</p>
${
    audit.plan === null ? null : html`<details class="tech" data-technical><summary>Technical details</summary><p>Plan ${audit.plan.planId} · prompt ${audit.plan.promptVersion}, sha256 <span class="hash">${audit.plan.promptHash}</span> · model ${audit.plan.model} · ${audit.plan.usage.inputTokens} tokens in, ${audit.plan.usage.outputTokens} out</p></details>`
  }
${history(audit, zone)}
${noteForms(audit, people, csrf)}
${forgetNoteLink(audit.note.id)}`
