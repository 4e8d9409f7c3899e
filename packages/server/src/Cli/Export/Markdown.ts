/**
 * One exported page: Obsidian-style YAML front matter (name, person id, note count, updated,
 * and the mark that lets a later export replace or remove the file), then the notes newest
 * first, each body followed by its source messages as footnotes (saying who a forwarded one was
 * forwarded from).
 */
import type { NotebookNote } from "@verbatim/projections/ReadModel"
import { DateTime } from "effect"

/** The front matter line that marks a file as written by the export. */
export const exportMark = "verbatim_export: true"

/** What a page is about: a person (id null when never added to the user's people) or the user's own notes. */
export interface PageSubject {
  readonly title: string
  readonly personId: string | null
  readonly user: string
}

/** A YAML scalar: JSON's double-quoted strings are YAML's, so any name is written exactly. */
const scalar = (value: string | null): string => (value === null ? "null" : JSON.stringify(value))

const renderNote = (note: NotebookNote, index: number): string => {
  const label = (k: number) => `[^n${index}-${k}]`
  const refs = note.sources.map((_, k) => label(k + 1)).join("")
  const footnotes = note.sources.map((s, k) =>
    `${label(k + 1)}: ${s.forwardedFrom === null ? "" : `forwarded from ${s.forwardedFrom.replace(/\s+/g, " ").trim()} · `}` +
    `seq ${s.seq} · ${DateTime.formatIso(s.receivedAt)} · ${s.provider} message ${s.providerMessageId}`
  )
  // A message's own "[^" is written escaped (it still reads "[^"), so no text can pass for the page's source footnotes.
  return [`## ${DateTime.formatIso(note.recordedAt)} · ${note.id}`, "", `${note.body.replaceAll("[^", "\\[^")}${refs}`, "", ...footnotes].join("\n")
}

/** The whole file for a page; `notes` newest first, at least one. */
export const renderPage = (subject: PageSubject, notes: ReadonlyArray<NotebookNote>): string => {
  const updated = notes.reduce((latest, n) => (DateTime.greaterThan(n.recordedAt, latest) ? n.recordedAt : latest), notes[0]!.recordedAt)
  const frontMatter = [
    "---",
    `name: ${scalar(subject.title)}`,
    `person_id: ${scalar(subject.personId)}`,
    `user: ${scalar(subject.user)}`,
    `note_count: ${notes.length}`,
    `updated: ${DateTime.formatIso(updated)}`,
    exportMark,
    "---"
  ]
  const heading = subject.title.replace(/\s+/g, " ").trim()
  return [...frontMatter, "", `# ${heading}`, "", notes.map((n, i) => renderNote(n, i + 1)).join("\n\n"), ""].join("\n")
}

/** Whether a file's text is a page the export wrote (its front matter carries the mark). */
export const isExported = (text: string): boolean => {
  if (!text.startsWith("---\n")) return false
  const end = text.indexOf("\n---\n", 3)
  return end !== -1 && text.slice(4, end).split("\n").includes(exportMark)
}
