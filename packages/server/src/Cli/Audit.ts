/**
 * `verbatim audit NOTE_ID`: the note's body with each message's source marked inline after its
 * text (and, for text read from a voice note or an image, the model that read it), instructions
 * cut from it shown struck through (`~~text~~`), and the plan and prompt that made it (or the
 * answer that confirmed it).
 */
import { Args, Command } from "@effect/cli"
import { NoteId } from "@verbatim/domain/Ids"
import { type NoteAuditView, Notebook } from "@verbatim/projections/Notebook"
import { Console, DateTime, Effect, Option } from "effect"
import { CliError } from "./CliError.js"

const ownerLabel = (view: NoteAuditView): string =>
  view.note.owner._tag === "Unattached"
    ? "unattached"
    : `${view.note.owner.name}${view.note.personId === null ? "" : ` (${view.note.personId})`}`

type Slice = Extract<NoteAuditView["segments"][number], { readonly _tag: "Slice" }>

/** One message's part of the body: its slices in order, each cut where it was removed, then its source. */
const renderMessage = (view: NoteAuditView, slices: ReadonlyArray<Slice>): string => {
  const source = view.sources.find((s) => s.messageId === slices[0]!.messageId)!
  const cuts = view.directives.filter((d) => d.messageId === source.messageId && d.start !== null)
  const parts: Array<string> = []
  let cursor = 0
  const cutsBefore = (end: number) => {
    for (const cut of cuts) if (cut.start! >= cursor && cut.start! < end) parts.push(`~~${cut.text}~~`)
  }
  for (const slice of slices) {
    cutsBefore(slice.start)
    parts.push(source.text.slice(slice.start, slice.end))
    cursor = slice.end
  }
  cutsBefore(Infinity)
  const derived = source.parts.flatMap((p) => p.origin._tag === "Derived" ? [`${p.origin.source} read by ${p.origin.model}`] : [])
  const readers = derived.length === 0 ? "" : ` · ${[...new Set(derived)].join(", ")}`
  return `${parts.join(" ")} ⟦seq ${source.seq} · ${source.messageId} · ${DateTime.formatIso(source.receivedAt)}${readers}⟧`
}

/** The body with sources and cuts inline; separators between messages as assembled. */
export const renderBody = (view: NoteAuditView): string => {
  let out = ""
  let run: Array<Slice> = []
  for (const segment of view.segments) {
    if (segment._tag === "Slice" && (run.length === 0 || run[0]!.messageId === segment.messageId)) {
      run.push(segment)
      continue
    }
    if (run.length > 0) out += renderMessage(view, run)
    run = []
    if (segment._tag === "Separator") out += segment.text
    else run.push(segment)
  }
  return run.length > 0 ? out + renderMessage(view, run) : out
}

/** The whole audit as printed. */
export const renderAudit = (view: NoteAuditView): string => {
  const lines = [
    `note ${view.note.id} about ${ownerLabel(view)}`,
    `session ${view.note.sessionId}, user ${view.note.user}, merged from ${view.mergedFrom} plan note(s)`,
    "",
    renderBody(view),
    "",
    "instructions cut:",
    ...(view.directives.length === 0
      ? ["  (none)"]
      : view.directives.map((d) => `  seq ${d.seq}: ~~${d.text}~~${d.start === null ? " (no longer matches the text)" : ""}`)),
    ...view.erased.map((e) => `seq ${e.seq} (${e.messageId}): erased on ${DateTime.formatIso(e.erasedAt).slice(0, 10)} at the user's request`),
    ...(view.reminders.length === 0
      ? []
      : ["reminders set:", ...view.reminders.map((r) => `  "${r.quote}": ${r.status === "asking" ? "time asked" : `due ${r.dueLocal.replace("T", " ")} ${r.zone}`}, ${r.status} (reminder ${r.reminderId})`)]),
    view.plan === null
      ? "plan: none (filed by an answer)"
      : `plan ${view.plan.planId}: prompt ${view.plan.promptVersion} (sha256 ${view.plan.promptHash}), model ${view.plan.model}, ` +
        `tokens ${view.plan.usage.inputTokens} in / ${view.plan.usage.outputTokens} out`,
    ...(view.confirmation === null
      ? []
      : [`confirmed by answering ${view.confirmation.questionId} at ${DateTime.formatIso(view.confirmation.answeredAt)}`])
  ]
  return lines.join("\n")
}

export const command = Command.make("audit", { noteId: Args.text({ name: "NOTE_ID" }).pipe(Args.withSchema(NoteId)) }, ({ noteId }) =>
  Effect.gen(function*() {
    const model = yield* Notebook
    const view = yield* model.noteAudit(noteId)
    if (Option.isNone(view)) {
      return yield* new CliError({ message: `no note ${noteId}; list notes with GET /api/people/:id/notes` })
    }
    yield* Console.log(renderAudit(view.value))
  })).pipe(Command.withDescription("Show a note's body traced to its source messages, the cuts, and the plan"))
