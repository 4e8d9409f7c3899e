/** `verbatim accounting SESSION`: every message of a session and its one disposition. */
import { Args, Command } from "@effect/cli"
import { SessionId } from "@verbatim/domain/Ids"
import { Notebook, type PrimaryDisposition, type SessionAccountingView } from "@verbatim/projections/Notebook"
import { Console, Effect, Option } from "effect"
import { CliError } from "./CliError.js"

const describe = (d: PrimaryDisposition): string => {
  switch (d._tag) {
    case "InNote":
      return `note ${d.noteId}`
    case "Discarded":
      return `note ${d.noteId}, discarded by the user`
    case "InQuestion":
      return `question ${d.questionId}`
    case "Erased":
      return `erased on ${d.erasedAt.slice(0, 10)} at the user's request`
    case "Instruction":
      return `instruction (${d.kind}): ${JSON.stringify(d.text)}`
    case "AwaitingPlan":
      return "awaiting a plan"
    case "AwaitingTranscription":
      return "awaiting transcription"
  }
}

const outcome = (r: SessionAccountingView["reminders"][number]): string =>
  r.outcome === "not-a-quote"
    ? "not in the message: no reminder, the sender told"
    : `${r.outcome === "scheduled" ? "scheduled" : `time asked (${r.detail ?? ""})`} as reminder ${r.reminderId ?? ""}, ${r.status ?? "not recorded"} now`

/** The accounting as printed: a header, one line per message with directives cut from it, then each reminder the plans proposed. */
export const renderAccounting = (view: SessionAccountingView): string =>
  [
    `session ${view.sessionId} (${view.status}), user ${view.user}, ${view.messages.length} message(s)`,
    ...view.messages.map((m) => {
      const cut = m.dispositions.filter((d) => d._tag === "Instruction" && d.kind === "directive")
      return `  seq ${m.seq} ${m.messageId}: ${describe(m.disposition)}` +
        cut.map((d) => (d._tag === "Instruction" ? `; cut ${JSON.stringify(d.text)}` : "")).join("")
    }),
    ...(view.reminders.length === 0
      ? []
      : [`reminders the plans proposed (${view.reminders.length}):`, ...view.reminders.map((r) => `  seq ${r.seq} ${JSON.stringify(r.quote)}: ${outcome(r)}`)])
  ].join("\n")

export const command = Command.make("accounting", { sessionId: Args.text({ name: "SESSION" }).pipe(Args.withSchema(SessionId)) }, ({ sessionId }) =>
  Effect.gen(function*() {
    const model = yield* Notebook
    const view = yield* model.sessionAccounting(sessionId)
    if (Option.isNone(view)) return yield* new CliError({ message: `no session ${sessionId}; session ids look like telegram:CHAT:USER:N` })
    yield* Console.log(renderAccounting(view.value))
  })).pipe(Command.withDescription("Show where every message of a session went"))
