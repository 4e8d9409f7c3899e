/** `applyPlan`: repair, never reject — every seq of the session ends in exactly one note, question or instruction. */
import { accountFor } from "./Accounting.js"
import { makeAgreement, pinToFirstWithId, sharesId } from "./Agreement.js"
import * as Attribution from "./Attribution.js"
import { contest, contestedCandidates } from "./Contest.js"
import type { Candidate, DirectiveCut, Owner, PlanWarning, QuestionReason, Segment } from "../Decision.js"
import type { MessageId } from "../Ids.js"
import * as IntList from "../IntList.js"
import type { MessageText } from "../Message.js"
import * as Merge from "./Merge.js"
import { makeAssembler } from "./NoteBody.js"
import type { Plan } from "../Plan.js"
import * as SlotIndex from "./SlotIndex.js"
import * as WarningLog from "../WarningLog.js"
import { compareNumbers } from "../Order.js"

/** A note decided by a plan, with its derived body and provenance. */
export interface AppliedNote {
  readonly owner: Owner
  /** Ascending. */
  readonly seqs: Array<number>
  readonly messageIds: Array<MessageId>
  /** The directives actually cut; re-assembling with them gives the same body. */
  readonly directives: Array<DirectiveCut>
  readonly body: string
  readonly segments: Array<Segment>
  /** How many plan notes were merged into this one (1 when none were). */
  readonly mergedFrom: number
}

/** Messages parked for the sender to decide. */
export interface Question {
  readonly reason: QuestionReason
  readonly seqs: Array<number>
  readonly messageIds: Array<MessageId>
  readonly candidates: Array<Candidate>
}

/** Text addressed to the bot: a whole message, or a directive cut from a note's message. */
export interface Instruction {
  readonly seq: number
  readonly messageId: MessageId
  readonly kind: "message" | "directive"
  readonly text: string
}

/** Everything a plan decides, in canonical order (notes and questions by smallest seq). */
export interface Decisions {
  readonly notes: Array<AppliedNote>
  readonly questions: Array<Question>
  readonly instructions: Array<Instruction>
  readonly warnings: Array<PlanWarning>
}

const bySmallestSeq = (a: { readonly seqs: ReadonlyArray<number> }, b: { readonly seqs: ReadonlyArray<number> }): number =>
  compareNumbers(a.seqs[0]!, b.seqs[0]!)

/** The slots not contested: the list itself when none is (most groups), else a copy without them. */
const uncontested = (slots: ReadonlyArray<number>, contestedSlot: Uint8Array): ReadonlyArray<number> => {
  let count = 0
  for (let i = 0; i < slots.length; i++) count += 1 - contestedSlot[slots[i]!]!
  if (count === slots.length) return slots
  const kept = new Array<number>(count)
  for (let i = 0, k = 0; i < slots.length; i++) if (contestedSlot[slots[i]!] === 0) kept[k++] = slots[i]!
  return kept
}

/**
 * Applies a decoded plan to a session's messages. Pure, total and deterministic: any numbers
 * and strings in the plan are repaired, never rejected, and plan order carries no information.
 * Seqs become slots once (`SlotIndex`); owners' notes are merged into groups (`Merge`), slots
 * claimed by two groups are contested (`Contest`), each note keeps the directives its claimants
 * agree on (`Agreement`) and is assembled from its slots (`NoteBody`).
 */
export const applyPlan = (messages: ReadonlyArray<MessageText>, plan: Plan): Decisions => {
  const index = SlotIndex.make(messages)
  const accounting = accountFor(index)
  const attributions = Attribution.make(Attribution.directiveCount(plan))
  const warnings = WarningLog.make()
  const groups = Merge.groups(plan, index, accounting, attributions, warnings)
  const dispositions = contest(index.seqs.length, groups, accounting.known(plan.botMessages))
  const { contestedSlot } = dispositions
  const seqsOf = (slots: ReadonlyArray<number>) => SlotIndex.seqsOf(index, slots)
  const idsOf = (slots: ReadonlyArray<number>) => SlotIndex.idsOf(index, slots)

  // At most one note per group: sized once, then cut to the notes made.
  const notes = new Array<AppliedNote>(groups.length)
  let noteCount = 0
  let cutCount = 0
  const questions: Array<Question> = []
  const question = (reason: QuestionReason, slots: ReadonlyArray<number>, candidates: Array<Candidate>) =>
    questions.push({ reason, seqs: seqsOf(slots), messageIds: idsOf(slots), candidates })
  const agree = makeAgreement(index, attributions)
  const assemble = makeAssembler(index, attributions)
  const agreed = IntList.make()
  for (const group of groups) {
    const slots = dispositions.anyContested ? uncontested(group.slots, contestedSlot) : group.slots
    if (slots.length === 0) continue
    if (group.kind === "unclear") {
      question("unclear", slots, [...group.candidates])
      continue
    }
    agree(group.claims, contestedSlot, agreed, warnings)
    if (agreed.length > 0 && sharesId(index, slots)) pinToFirstWithId(index, attributions, slots, agreed, warnings)
    const { body, directives, segments } = assemble(slots, agreed, warnings)
    cutCount += directives.length
    notes[noteCount++] = {
      owner: group.owner,
      seqs: seqsOf(slots),
      messageIds: idsOf(slots),
      directives,
      body,
      segments,
      mergedFrom: group.claims.length
    }
  }
  notes.length = noteCount
  const { botOnly } = dispositions
  const instructions = new Array<Instruction>(botOnly.length + cutCount)
  for (let i = 0; i < botOnly.length; i++) {
    const { id: messageId, text } = index.messages[botOnly[i]!]!
    instructions[i] = { seq: index.seqs[botOnly[i]!]!, messageId, kind: "message", text }
  }
  let next = botOnly.length
  for (let n = 0; n < noteCount; n++) {
    for (const { messageId, seq, text } of notes[n]!.directives) instructions[next++] = { seq, messageId, kind: "directive", text }
  }
  for (const { groups: claimants, slots } of dispositions.contested) {
    question("contested", slots, contestedCandidates(claimants))
    WarningLog.record(warnings, "contested", seqsOf(slots))
  }
  for (const slot of dispositions.keptFromBot) WarningLog.record(warnings, "bot-message-kept-as-note", [index.seqs[slot]!])
  if (dispositions.unplanned.length > 0) {
    question("unplanned", dispositions.unplanned, [])
    WarningLog.record(warnings, "unplanned", seqsOf(dispositions.unplanned))
  }
  const unknown = accounting.unknown()
  if (unknown.length > 0) WarningLog.record(warnings, "unknown-seq", unknown)

  return {
    notes: notes.sort(bySmallestSeq),
    questions: questions.sort(bySmallestSeq),
    instructions: instructions.sort((a, b) => compareNumbers(a.seq, b.seq)),
    warnings: WarningLog.toWarnings(warnings)
  }
}
