/**
 * A replayed session scored against its user's own outcome: labels from the session's log and the
 * user's people, the live plans' and the shadow plans' agreement with them, and the shadow plans'
 * invariants. The people are read once per run, for every user.
 */
import type { Decisions } from "@verbatim/domain/ApplyPlan/ApplyPlan"
import * as Directory from "@verbatim/domain/Eval/Directory"
import { checkInvariants, type InvariantReport } from "@verbatim/domain/Eval/Invariants"
import { type SessionLabels, sessionLabels } from "@verbatim/domain/Eval/Labels"
import { type MessageScore, type Placement, scoreSession, type Tally, type Verdict } from "@verbatim/domain/Eval/Score"
import type { Event } from "@verbatim/domain/Events"
import type { MessageText } from "@verbatim/domain/Message"
import { EventStore, start } from "@verbatim/projections/EventStore"
import { Effect, Stream } from "effect"

/** One message: where the user accepted it, where the live and shadow plans put it, and the shadow's verdict. */
export interface MessageRow extends MessageScore {
  /** The message's first words, for a reader of the report. */
  readonly text: string
  readonly live: Placement
  readonly liveVerdict: Verdict
}

/** How a session's shadow plans fare against what its user accepted. */
export interface Evaluation {
  /** The live plans' score against the same labels: the baseline. */
  readonly live: Tally
  readonly shadow: Tally
  readonly messages: ReadonlyArray<MessageRow>
  readonly invariants: InvariantReport
  /** Seqs of the messages the user answered a question about, moved or edited. */
  readonly corrected: { readonly answered: ReadonlyArray<number>; readonly moved: ReadonlyArray<number>; readonly edited: ReadonlyArray<number> }
}

const peopleTypes = ["PersonAdded", "PersonRenamed", "PeopleMerged", "PeopleUnmerged"] as const

/** Every user's people events, in log order. */
export const loadPeople = Effect.fn("Evaluate.loadPeople")(function*() {
  const store = yield* EventStore
  const events = yield* Stream.runCollect(store.readAll(start, { types: peopleTypes }))
  const byUser = new Map<string, Array<Event>>()
  for (const { event } of events) {
    if (event._tag !== "PersonAdded" && event._tag !== "PersonRenamed" && event._tag !== "PeopleMerged" && event._tag !== "PeopleUnmerged") continue
    byUser.set(event.user, [...(byUser.get(event.user) ?? []), event])
  }
  return (user: string): Directory.Directory => Directory.make(byUser.get(user) ?? [])
})

const excerpt = (text: string): string => {
  const line = text.replace(/\s+/g, " ").trim()
  const chars = [...line]
  return chars.length <= 60 ? line : `${chars.slice(0, 59).join("")}…`
}

const corrections = (labels: SessionLabels): Evaluation["corrected"] => ({
  answered: labels.answered.flatMap((a) => a.seqs).sort((a, b) => a - b),
  moved: labels.messages.filter((m) => m.basis === "moved").map((m) => m.seq),
  edited: labels.edited
})

/** Scores the live and shadow decisions of one session against the labels of its events. */
export const evaluate = (
  events: ReadonlyArray<Event>,
  messages: ReadonlyArray<MessageText>,
  people: Directory.Directory,
  live: ReadonlyArray<Decisions>,
  shadow: ReadonlyArray<Decisions>
): Evaluation => {
  const labels = sessionLabels(events, people)
  const before = scoreSession(labels, live, people)
  const after = scoreSession(labels, shadow, people)
  const texts = new Map(messages.map((m) => [m.seq, m.text]))
  return {
    live: before.tally,
    shadow: after.tally,
    messages: after.messages.map((m, i) => ({
      ...m,
      text: excerpt(texts.get(m.seq) ?? ""),
      live: before.messages[i]!.candidate,
      liveVerdict: before.messages[i]!.verdict
    })),
    invariants: checkInvariants(messages, shadow, people, labels),
    corrected: corrections(labels)
  }
}

/** A placement as a reader of a report reads it. */
export const placementText = (placement: Placement | null): string => {
  if (placement === null) return "—"
  switch (placement._tag) {
    case "Person":
      return placement.personId === null ? `${placement.name} (new)` : placement.name
    case "Unattached":
      return "(unattached)"
    case "Bot":
      return "(bot)"
    case "Question":
      return `(question: ${placement.reason})`
    case "Missing":
      return "(missing)"
  }
}

/** The rows a reader needs: messages the shadow places otherwise than the live plan, or scores otherwise. */
export const changedRows = (evaluation: Evaluation): ReadonlyArray<MessageRow> =>
  evaluation.messages.filter((m) => m.verdict !== m.liveVerdict || placementText(m.live) !== placementText(m.candidate))
