/**
 * The subject-access copy as Markdown for people to read: the person, then a section per note.
 * Every word a person wrote (a message, its earlier text, an instruction cut, a note's text) is
 * quoted in a fence longer than any backtick run in it, so Markdown reinterprets none of it; a
 * name in running text has Markdown's markup characters escaped, which show as themselves.
 */
import { DateTime } from "effect"
import type { Owner } from "../Decision.js"
import type { CurationStep, SubjectAccessCopy, SubjectNote, SubjectSource } from "./Copy.js"

const longestRun = (text: string, mark: string) => Math.max(0, ...[...text.matchAll(new RegExp(`${mark}+`, "g"))].map((m) => m[0].length))

/** Text exactly as it is, in a fenced block no line of it can close. */
export const fenced = (text: string): string => {
  if (text === "") return "*(no text)*"
  const fence = "`".repeat(Math.max(3, longestRun(text, "`") + 1))
  return `${fence}text\n${text}\n${fence}`
}

/** An id as code, which Markdown shows as it is. */
const code = (text: string): string => {
  const ticks = "`".repeat(longestRun(text, "`") + 1)
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : ""
  return `${ticks}${pad}${text}${pad}${ticks}`
}

/** A name or other short text on one line, its markup characters escaped (each still reads as itself). */
export const inline = (text: string): string => text.replace(/\s+/g, " ").trim().replace(/[\\`*_[\]<>#~&]/g, (c) => `\\${c}`)

const at = (time: DateTime.Utc) => DateTime.formatIso(time)

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

const ownerText = (owner: Owner) => (owner._tag === "Person" ? inline(owner.name) : "the owner's own notes (about no one)")

const carried = (step: CurationStep) =>
  "carriedFrom" in step && step.carriedFrom !== null ? ` (made on ${code(step.carriedFrom)} and kept through an update)` : ""

const stepText = (step: CurationStep): string => {
  switch (step._tag) {
    case "Moved":
      return `moved to ${ownerText(step.to)}`
    case "SplitOff":
      return `split: ${step.seqs.length === 1 ? "message" : "messages"} ${step.seqs.join(", ")} became note ${code(step.into)}`
    case "SplitFrom":
      return `split from note ${code(step.from)}`
    case "Discarded":
      return "discarded"
    case "Restored":
      return "restored"
  }
}

const readAs = { speech: "transcribed", image: "read from the image", document: "read from the document" } as const

const attachmentLines = (source: SubjectSource): ReadonlyArray<string> =>
  source.attachments.map((a) =>
    `- Attachment ${a.attachment}${a.kind === null ? "" : ` (${a.kind})`}: ${
      a.readAs === null ? "no text read from it" : `${readAs[a.readAs]} by ${inline(a.model ?? "an unknown model")}`
    }`
  )

const sourceSection = (source: SubjectSource): string =>
  [
    `### Message seq ${source.seq}`,
    "",
    `- Message ${code(source.messageId)}: ${source.provider} message ${code(source.providerMessageId)} in session ${code(source.sessionId)}`,
    `- Sent ${at(source.sentAt)}, received ${at(source.receivedAt)}`,
    ...(source.forwardedFrom === null ? [] : [`- Forwarded from ${inline(source.forwardedFrom)}`]),
    ...attachmentLines(source),
    `- ${source.edits.length === 0 ? "Never edited" : `Edited ${plural(source.edits.length, "time", "times")}; each earlier text follows the text as stored`}`,
    "",
    fenced(source.text),
    ...source.edits.flatMap((e) => ["", `Before the edit of ${at(e.editedAt)} it read:`, "", fenced(e.previousText)])
  ].join("\n")

const filedUnder = (note: SubjectNote) =>
  note.filedUnder === null
    ? "the owner's own notes"
    : `${inline(note.filedUnder.name)}${note.filedUnder.personId === null ? "" : ` (${code(note.filedUnder.personId)})`}`

const filedBy = (note: SubjectNote): ReadonlyArray<string> => [
  `- Filed under ${filedUnder(note)} by ${
    note.plan === null
      ? "the owner's answer to a question"
      : `plan ${code(note.plan.planId)}: prompt ${inline(note.plan.promptVersion)} (${code(note.plan.promptHash)}), model ${inline(note.plan.model)}${
        note.mergedFrom > 1 ? `, merged from ${note.mergedFrom} notes of the plan` : ""
      }`
  }`,
  ...(note.answer === null
    ? []
    : [`- Answer: question ${code(note.answer.questionId)} answered ${at(note.answer.answeredAt)}: ${ownerText(note.answer.answer)}`])
]

const noteSection = (note: SubjectNote, title: string): string =>
  [
    `## ${title}: ${code(note.id)}`,
    "",
    `- Recorded ${at(note.recordedAt)}`,
    ...(note.discardedAt === null ? [] : [`- Discarded ${at(note.discardedAt)} (set aside by its owner, still held)`]),
    `- Owner: ${inline(note.user)}`,
    `- Session ${code(note.sessionId)}`,
    ...filedBy(note),
    "",
    "The note's text:",
    "",
    fenced(note.body),
    "",
    ...note.sources.map((s) => `${sourceSection(s)}\n`),
    "### Instructions cut",
    "",
    ...(note.directives.length === 0
      ? ["None.", ""]
      : note.directives.flatMap((d) => [`From seq ${d.seq}${d.start === null ? " (no longer found in its text)" : ""}:`, "", fenced(d.text), ""])),
    ...(note.reminders.length === 0 ? [] : [
      "### Reminders its words set",
      "",
      ...note.reminders.flatMap((r) => [`Due ${inline(r.dueLocal)} (${inline(r.zone)}), ${r.status}, from ${code(r.messageId)}:`, "", fenced(r.quote), ""])
    ]),
    "### Changes made to it",
    "",
    note.curation.length === 0 ? "None." : note.curation.map((s) => `- ${at(s.at)}: ${stepText(s)}${carried(s)}`).join("\n")
  ].join("\n")

const personLines = (copy: SubjectAccessCopy): ReadonlyArray<string> => {
  const { person } = copy
  return [
    `- Person ${code(person.id)} of ${inline(person.user)}`,
    `- Name: ${inline(person.name)}`,
    `- Former names: ${person.formerNames.length === 0 ? "none" : person.formerNames.map(inline).join(", ")}`,
    `- People merged into them: ${
      person.mergedIn.length === 0 ? "none" : person.mergedIn.map((m) =>
        `${inline(m.name)} (${code(m.id)}${m.formerNames.length === 0 ? "" : `, before that ${m.formerNames.map(inline).join(", ")}`})`
      ).join("; ")
    }`
  ]
}

/** The whole document, ending with a newline. */
export const renderCopy = (copy: SubjectAccessCopy): string => {
  const name = inline(copy.person.name)
  const live = copy.notes.length
  const discarded = copy.discarded.length
  return [
    `# What I hold about ${name}`,
    "",
    `Exported ${at(copy.exportedAt)}: every note filed under ${name}, those of people merged into them included, ` +
    `${plural(live, "note", "notes")} in the order they were recorded, then ${plural(discarded, "discarded note", "discarded notes")} ` +
    "(set aside by their owner and still held). Each note gives its text, when it was recorded, its owner, every message it was made " +
    "from quoted exactly as stored (with its earlier text if it was edited, and what read any attachment), the instructions to the bot " +
    "cut from them, the plan or answer that filed it and every change made to it.",
    "",
    ...personLines(copy),
    "",
    ...copy.notes.map((n, i) => `${noteSection(n, `Note ${i + 1} of ${live}`)}\n`),
    ...copy.discarded.map((n, i) => `${noteSection(n, `Discarded note ${i + 1} of ${discarded}`)}\n`)
  ].join("\n")
}
