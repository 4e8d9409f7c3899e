/**
 * Answering a question: the sender's choice files the parked messages as one note, decided by the
 * session decider at the version it read, so a plan or another answer in between makes it decide
 * again (answering twice, or from two devices at once, files once).
 */
import type { NoteId, Provider, QuestionId, UserId } from "@verbatim/domain/Ids"
import * as ReplyText from "@verbatim/domain/ReplyText"
import { type Choice, Command } from "@verbatim/domain/Session/Commands"
import { queueReply } from "@verbatim/domain/Session/Replies"
import type { EventStore, StoreError } from "@verbatim/projections/EventStore"
import type { FoldCache } from "@verbatim/projections/FoldCache"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import { DateTime, Effect, Option } from "effect"
import { IdGenerator } from "../IdGenerator.js"
import { execute } from "../Sessions.js"

export type { Choice }

/** What an answer did; every outcome but `Filed` changes nothing and is told politely. */
export type AnswerOutcome =
  | { readonly _tag: "Filed"; readonly noteId: NoteId; readonly label: string }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "NotYours" }
  | { readonly _tag: "AlreadyAnswered" }
  | { readonly _tag: "Withdrawn" }
  | { readonly _tag: "AlreadyFiled" }
  | { readonly _tag: "NoSuchOption" }

const refused = {
  "not-found": "NotFound",
  "no-session": "NotFound",
  "not-yours": "NotYours",
  "already-answered": "AlreadyAnswered",
  "withdrawn": "Withdrawn",
  "already-filed": "AlreadyFiled",
  "no-such-option": "NoSuchOption"
} as const

/**
 * Answer a question. `asker` is the user answering (a webhook's sender); `null` for the API, whose
 * bearer token speaks for every user.
 */
export const answer = (
  questionId: QuestionId,
  choice: Choice,
  asker: UserId | null
): Effect.Effect<AnswerOutcome, StoreError, EventStore | FoldCache | SessionLookups | IdGenerator> =>
  Effect.gen(function*() {
    const read = yield* SessionLookups
    const sessionId = yield* read.questionSession(questionId)
    if (Option.isNone(sessionId)) return { _tag: "NotFound" } as const
    const ids = yield* Effect.flatMap(IdGenerator, (g) => g.supply)
    const done = yield* execute(sessionId.value, (state) =>
      Effect.gen(function*() {
        const known = state.user === null ? [] : yield* read.knownPeople(state.user)
        const now = yield* DateTime.now
        return Command.Answer({ questionId, choice, asker, known, ids, now })
      }))
    if (done._tag === "AlreadyRecorded") return { _tag: "AlreadyAnswered" } as const
    const answered = done.events.find((e) => e._tag === "QuestionAnswered")
    const note = done.events.find((e) => e._tag === "NoteRecorded")
    return answered?._tag === "QuestionAnswered" && note?._tag === "NoteRecorded"
      ? { _tag: "Filed", noteId: note.noteId, label: ReplyText.optionLabel(answered.answer) } as const
      : { _tag: "AlreadyAnswered" } as const
  }).pipe(
    Effect.catchTag("Rejected", (e) =>
      e.reason in refused
        ? Effect.succeed({ _tag: refused[e.reason as keyof typeof refused] } as AnswerOutcome)
        : Effect.die(e)),
    // Two processes answering at once: the read model's unique source index refuses the second.
    Effect.catchIf((e) => e._tag === "StoreError" && e.reason === "duplicate-source", () =>
      Effect.succeed({ _tag: "AlreadyAnswered" } as const)),
    Effect.withSpan("Answers.answer", { attributes: { questionId } })
  )

/** What the bot replies to an answer. */
export const outcomeText = (outcome: AnswerOutcome): string => {
  switch (outcome._tag) {
    case "Filed":
      return `Filed under ${outcome.label}.`
    case "NotFound":
    case "NotYours":
      return "Sorry, I could not find that question."
    case "AlreadyAnswered":
      return "That question was already answered; nothing changed."
    case "Withdrawn":
      return "That question was withdrawn: a later plan filed those messages; nothing changed."
    case "AlreadyFiled":
      return "Those messages are already in a note; nothing changed."
    case "NoSuchOption":
      return "Sorry, that is not one of the choices."
  }
}

/** The confirmation reply queued after an answer through a provider. */
export const confirmation = (user: UserId, provider: Provider, chat: string, text: string) =>
  Effect.map(Effect.flatMap(IdGenerator, (g) => g.supply), (ids) => queueReply(ids, { user, provider, chat }, text))
