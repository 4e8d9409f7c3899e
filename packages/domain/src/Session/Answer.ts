/**
 * Answering a question: the chosen person (or the sender's own notes) gets the parked messages as
 * one note. Answering twice files once: an answered, withdrawn or already filed question refuses.
 */
import { Either } from "effect"
import type { Answer } from "../Events.js"
import { NoteId } from "../Ids.js"
import * as ReplyText from "../ReplyText.js"
import { type Command, type Decision, rejected } from "./Commands.js"
import { resolver } from "./People.js"
import { isFiled, type SessionState } from "./State.js"

/** A given person's name as recorded: trimmed, as people are matched. */
const trimmed = (answer: Answer): Answer => answer._tag === "Person" ? { ...answer, name: answer.name.trim() } : answer

export const decideAnswer = (state: SessionState, command: Command & { readonly _tag: "Answer" }): Decision => {
  const question = state.questions.get(command.questionId)
  if (question === undefined || state.sessionId === null) return Either.left(rejected("not-found"))
  if (command.asker !== null && command.asker !== question.user) return Either.left(rejected("not-yours"))
  if (question.status === "withdrawn") return Either.left(rejected("withdrawn"))
  if (question.status !== "open") return Either.left(rejected("already-answered"))
  if (question.sources.some((s) => isFiled(state, s.messageId))) return Either.left(rejected("already-filed"))
  const { choice, ids } = command
  const chosen: Answer | undefined = choice._tag === "Given"
    ? trimmed(choice.answer)
    : ReplyText.answerOptions(question.candidates)[choice.index]
  if (chosen === undefined) return Either.left(rejected("no-such-option"))
  if (chosen._tag === "Person" && chosen.name === "") return Either.left(rejected("no-such-option", "a person's name must not be empty"))
  const noteId = NoteId.make(ids.next("note"))
  const people = resolver(command.known, question.user, ids)
  const personId = people.resolve(chosen)
  const owner = people.owner(chosen)
  return Either.right([
    ...people.added,
    { _tag: "QuestionAnswered", questionId: question.questionId, sessionId: state.sessionId, answer: owner, answeredAt: command.now },
    {
      _tag: "NoteRecorded",
      noteId,
      sessionId: state.sessionId,
      user: question.user,
      planId: null,
      questionId: question.questionId,
      owner,
      personId,
      sources: question.sources,
      directives: [],
      mergedFrom: 1
    }
  ])
}
