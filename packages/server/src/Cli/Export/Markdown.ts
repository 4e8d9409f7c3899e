/**
 * One exported page: Obsidian-style YAML front matter (name and alias, person id, note count and
 * ids, updated, time zone, and the mark that lets a later export replace or remove the file),
 * then the notes newest first under their local time, each message's words followed by its
 * footnote (saying who a forwarded one was forwarded from).
 */
import type { NotebookNote } from "@verbatim/projections/Notebook"
import { localTime } from "@verbatim/domain/ReadableTime"
import { DateTime } from "effect"

/** The front matter line that marks a file as written by the export. */
export const exportMark = "verbatim_export: true"

/** What a page is about: a person (id null when never added to the user's people) or the user's own notes. */
export interface PageSubject {
  readonly title: string
  /** Whether the page is a person's: their name is then the page's alias, what Obsidian links find it by. */
  readonly person: boolean
  readonly personId: string | null
  readonly user: string
  /** The user's time zone (IANA), that the notes' headings are written in. */
  readonly zone: string
}

/** A YAML scalar: JSON's double-quoted strings are YAML's, so any name is written exactly. */
const scalar = (value: string | null): string => (value === null ? "null" : JSON.stringify(value))

/** A YAML list property, one item a line (as Obsidian writes its own). */
const list = (key: string, items: ReadonlyArray<string>): Array<string> => [`${key}:`, ...items.map((item) => `  - ${scalar(item)}`)]

/**
 * The body with each source's footnote marker right after that message's words (a message with
 * none left in the body has its marker at the very end). A message's own "[^" is written escaped (it
 * still reads "[^"), so no text can pass for the page's source footnotes.
 */
const markedBody = (note: NotebookNote, label: (k: number) => string): string => {
  const marks = note.sources.map((s, k) => ({ at: s.bodyEnd ?? Infinity, label: label(k + 1) })).sort((a, b) => (a.at === b.at ? 0 : a.at < b.at ? -1 : 1))
  const escape = (text: string) => text.replaceAll("[^", "\\[^")
  let out = ""
  let from = 0
  for (const mark of marks) {
    out += escape(note.body.slice(from, mark.at)) + mark.label
    from = mark.at
  }
  return out + escape(note.body.slice(from))
}

/** One note as its page shows it, the `index`-th from the top (its footnotes are numbered by it). */
export const renderNote = (note: NotebookNote, index: number, zone: string): string => {
  const label = (k: number) => `[^n${index}-${k}]`
  const footnotes = note.sources.map((s, k) =>
    `${label(k + 1)}: ${s.forwardedFrom === null ? "" : `forwarded from ${s.forwardedFrom.replace(/\s+/g, " ").trim()} · `}` +
    `seq ${s.seq} · ${DateTime.formatIso(s.receivedAt)} · ${s.provider} message ${s.providerMessageId}`
  )
  return [`## ${localTime(note.recordedAt, zone)}`, "", markedBody(note, label), "", ...footnotes].join("\n")
}

/*
 * A page is written in pieces, so a page of many notes never needs them all at once: `pageOpening`,
 * a `noteIdLine` per note, `pageHeading`, the notes (`renderNote`) separated by `noteSeparator`,
 * and `pageEnd`. `renderPage` is the same pieces joined.
 */

/** The front matter up to the note ids' list. */
export const pageOpening = (subject: PageSubject, noteCount: number): string =>
  [
    "---",
    `name: ${scalar(subject.title)}`,
    ...(subject.person ? list("aliases", [subject.title]) : []),
    `person_id: ${scalar(subject.personId)}`,
    `user: ${scalar(subject.user)}`,
    `note_count: ${noteCount}`,
    "note_ids:",
    ""
  ].join("\n")

/** One item of the note ids' list. */
export const noteIdLine = (id: string): string => `  - ${scalar(id)}\n`

/** The rest of the front matter (`updated`: the newest recorded time of the page's notes), then the page's heading. */
export const pageHeading = (subject: PageSubject, updated: DateTime.Utc): string =>
  [
    `updated: ${DateTime.formatIso(updated)}`,
    `time_zone: ${scalar(subject.zone)}`,
    exportMark,
    "---",
    "",
    `# ${subject.title.replace(/\s+/g, " ").trim()}`,
    "",
    ""
  ].join("\n")

/** What goes between two notes. */
export const noteSeparator = "\n\n"
/** What follows the last note. */
export const pageEnd = "\n"

/** The newest of the notes' recorded times, the first's when tied; `notes` newest first, at least one. */
const updatedOf = (notes: ReadonlyArray<Pick<NotebookNote, "recordedAt">>): DateTime.Utc =>
  notes.reduce((latest, n) => (DateTime.greaterThan(n.recordedAt, latest) ? n.recordedAt : latest), notes[0]!.recordedAt)

/** The whole file for a page; `notes` newest first, at least one. */
export const renderPage = (subject: PageSubject, notes: ReadonlyArray<NotebookNote>): string =>
  pageOpening(subject, notes.length) + notes.map((n) => noteIdLine(n.id)).join("") + pageHeading(subject, updatedOf(notes)) +
  notes.map((n, i) => renderNote(n, i + 1, subject.zone)).join(noteSeparator) + pageEnd

/** Whether a file's text is a page the export wrote (its front matter carries the mark). */
export const isExported = (text: string): boolean => {
  if (!text.startsWith("---\n")) return false
  const end = text.indexOf("\n---\n", 3)
  return end !== -1 && text.slice(4, end).split("\n").includes(exportMark)
}
