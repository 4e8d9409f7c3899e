/** The questions projection; owns `questions` and `question_messages`: questions parked for the user and their answers. */
import { absurd } from "effect"
import { isRetired } from "./Plans.js"
import { patch, type Step, stepwise } from "./Projection.js"

type Handled = "QuestionParked" | "QuestionAnswered" | "QuestionWithdrawn" | "PlanProduced"

/** A row per question with the messages it asks about; a superseded plan's open questions are withdrawn. */
export const Questions = stepwise<Handled>(
  "questions",
  ["QuestionParked", "QuestionAnswered", "QuestionWithdrawn", "PlanProduced"],
  (event, position): Step => {
    switch (event._tag) {
      case "QuestionParked":
        return {
          wants: (keys) => {
            if (event.planId !== null) keys.add("plans", "plan_id", event.planId)
            keys.add("questions", "question_id", event.questionId)
            keys.add("question_messages", "question_id", event.questionId)
          },
          evolve: (batch) => {
            if (isRetired(batch, event.planId)) return
            if (!batch.has("questions", event.questionId)) {
              batch.put("questions", {
                question_id: event.questionId,
                session_id: event.sessionId,
                user_id: event.user,
                plan_id: event.planId,
                reason: event.reason,
                candidates: JSON.stringify(event.candidates),
                status: "open",
                answer: null,
                answered_at: null,
                position
              })
            }
            for (const source of event.sources) {
              if (!batch.has("question_messages", event.questionId, source.messageId)) {
                batch.put("question_messages", { question_id: event.questionId, message_id: source.messageId, seq: source.seq })
              }
            }
          }
        }
      case "QuestionAnswered":
        return {
          wants: (keys) => keys.add("questions", "question_id", event.questionId),
          evolve: (batch) =>
            patch(batch, "questions", event.questionId, {
              status: "answered",
              answer: JSON.stringify(event.answer),
              answered_at: event.answeredAt
            })
        }
      case "QuestionWithdrawn":
        return {
          wants: (keys) => keys.add("questions", "question_id", event.questionId),
          evolve: (batch) => patch(batch, "questions", event.questionId, { status: "withdrawn" })
        }
      case "PlanProduced":
        return {
          wants: (keys) => {
            for (const superseded of event.supersedes) keys.add("questions", "plan_id", superseded)
          },
          evolve: (batch) => {
            for (const superseded of event.supersedes) {
              for (const question of batch.where("questions", "plan_id", superseded)) {
                if (question.status === "open") batch.update("questions", question, { status: "withdrawn" })
              }
            }
          }
        }
      default:
        return absurd(event)
    }
  }
)
