/**
 * Answering a question: the sender's choice files the parked messages as one note. Answering
 * twice, or from two devices at once, yields one note: the read model's unique index on a note's
 * source message refuses the second append whole.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Candidate } from "@verbatim/domain/Decision"
import type { Answer, Event } from "@verbatim/domain/Events"
import type { MessageId, NoteId, QuestionId, SessionId, UserId } from "@verbatim/domain/Ids"
import * as ReplyText from "@verbatim/domain/ReplyText"
import { type AppendConflict, EventStore, type StoreError } from "@verbatim/projections/EventStore"
import { DateTime, Effect, Option, Schema } from "effect"
import { IdGenerator } from "./IdGenerator.js"
import { knownPeople, resolver } from "./People.js"
import { queueReply } from "./PlanRecording.js"
import { sessionStream } from "./Streams.js"

/** What an answer did; every outcome but `Filed` changes nothing and is told politely. */
export type AnswerOutcome =
  | { readonly _tag: "Filed"; readonly noteId: NoteId; readonly label: string }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "NotYours" }
  | { readonly _tag: "AlreadyAnswered" }
  | { readonly _tag: "Withdrawn" }
  | { readonly _tag: "AlreadyFiled" }
  | { readonly _tag: "NoSuchOption" }

/** The choice: an option index from a button, or an answer given through the API. */
export type Choice = { readonly _tag: "Option"; readonly index: number } | { readonly _tag: "Given"; readonly answer: Answer }

interface QuestionRow {
  readonly session_id: string
  readonly user_id: string
  readonly status: string
  readonly candidates: string
}

interface Source {
  readonly message_id: string
  readonly seq: number
}

const decodeCandidates = Schema.decodeUnknownSync(Schema.parseJson(Schema.Array(Candidate)))

const load = (questionId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* sql<QuestionRow>`SELECT session_id, user_id, status, candidates FROM questions WHERE question_id = ${questionId}`
    const sources = yield* sql<Source>`SELECT message_id, seq FROM question_messages WHERE question_id = ${questionId} ORDER BY seq`
    const filed = yield* sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM note_sources ns
      JOIN question_messages qm ON qm.message_id = ns.message_id WHERE qm.question_id = ${questionId}`
    return Option.map(Option.fromNullable(rows[0]), (row) => ({
      row,
      sources: sources.map((s) => ({ messageId: s.message_id as MessageId, seq: Number(s.seq) })),
      filed: Number(filed[0]?.n ?? 0) > 0
    }))
  })

const answerOnce = (
  questionId: string,
  choice: Choice,
  asker: UserId | null
): Effect.Effect<AnswerOutcome, StoreError | SqlError | AppendConflict, EventStore | SqlClient | IdGenerator> =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const located = yield* load(questionId)
    if (Option.isNone(located)) return { _tag: "NotFound" } as const
    // The version first, then the question as decided on (projections commit with their events,
    // so it is as of that version or later): a plan or another answer appended after the version
    // makes this append conflict, and the answer is decided again.
    const version = yield* store.streamVersion(sessionStream(located.value.row.session_id as SessionId))
    const found = yield* load(questionId)
    if (Option.isNone(found)) return { _tag: "NotFound" } as const
    const { filed, row, sources } = found.value
    if (asker !== null && asker !== row.user_id) return { _tag: "NotYours" } as const
    if (row.status === "withdrawn") return { _tag: "Withdrawn" } as const
    if (row.status !== "open") return { _tag: "AlreadyAnswered" } as const
    if (filed) return { _tag: "AlreadyFiled" } as const
    const options = ReplyText.answerOptions(decodeCandidates(row.candidates))
    const chosen: Answer | undefined = choice._tag === "Given" ? choice.answer : options[choice.index]
    if (chosen === undefined) return { _tag: "NoSuchOption" } as const
    const ids = yield* IdGenerator
    const noteId = (yield* ids.next("note")) as NoteId
    const sessionId = row.session_id as SessionId
    const user = row.user_id as UserId
    const people = resolver(yield* knownPeople(user), user)
    const personId = yield* people.resolve(chosen)
    const answeredAt = yield* DateTime.now
    const label = ReplyText.optionLabel(chosen)
    const events: Array<Event> = [
      ...people.added,
      { _tag: "QuestionAnswered", questionId: questionId as QuestionId, sessionId, answer: people.owner(chosen), answeredAt },
      {
        _tag: "NoteRecorded",
        noteId,
        sessionId,
        user,
        planId: null,
        questionId: questionId as QuestionId,
        owner: people.owner(chosen),
        personId,
        sources,
        directives: [],
        mergedFrom: 1
      }
    ]
    const appended = yield* store.append(sessionStream(sessionId), version, events).pipe(
      Effect.as(true),
      Effect.catchIf((e) => e._tag === "StoreError" && e.reason === "duplicate-source", () => Effect.succeed(false))
    )
    return appended ? ({ _tag: "Filed", noteId, label } as const) : ({ _tag: "AlreadyAnswered" } as const)
  })

/**
 * Answer a question. `asker` is the user answering (a webhook's sender); `null` for the API, whose
 * bearer token speaks for every user. Appended at the session version the answer was decided on,
 * so a question withdrawn or answered meanwhile is not filed as well.
 */
export const answer = (
  questionId: string,
  choice: Choice,
  asker: UserId | null
): Effect.Effect<AnswerOutcome, StoreError | SqlError, EventStore | SqlClient | IdGenerator> =>
  answerOnce(questionId, choice, asker).pipe(
    Effect.retry({ times: 10, while: (e) => e._tag === "AppendConflict" }),
    Effect.catchTag("AppendConflict", (e) => Effect.die(e)),
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
export const confirmation = (user: UserId, provider: "telegram" | "whatsapp", chat: string, text: string) =>
  queueReply({ user, provider, chat }, text)
