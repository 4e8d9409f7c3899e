/** `applyPlan`: repair, never reject — every seq of the session ends in exactly one note, question or instruction. */
import { makeSession, type Session } from "./Accounting.js"
import { assembleNote, type NoteDirective } from "./Assembly.js"
import { contest, contestedCandidates, type Group, type NoteClaim } from "./Contest.js"
import type { Candidate, DirectiveCut, Owner, PlanWarning, QuestionReason, Segment } from "./Decision.js"
import type { MessageId } from "./Ids.js"
import type { MessageText } from "./Message.js"
import { agreeOnMessage, attribute, type Attribution, mergeClaims } from "./Merge.js"
import { canonicalCandidates, canonicalOwner, personKey, unattachedKey } from "./Owners.js"
import type { Plan, PlanNote } from "./Plan.js"
import * as Warnings from "./Warnings.js"

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

const unionSeqs = (claims: ReadonlyArray<{ readonly seqs: ReadonlyArray<number> }>): ReadonlyArray<number> =>
  claims.length === 1
    ? claims[0]!.seqs
    : [...new Set(claims.flatMap((claim) => claim.seqs))].sort(Warnings.compareNumbers)

/** Each owner's plan notes, accounted for and merged: one group per merged note. */
const noteGroups = (plan: Plan, session: Session, warnings: Array<PlanWarning>): Array<Group> => {
  const byOwner = new Map<string, { owners: Array<Owner>; claims: Array<NoteClaim> }>()
  const textOf = (seq: number): string => session.bySeq.get(seq)!.text
  const addNotes = (key: string, owner: Owner, notes: ReadonlyArray<PlanNote>) => {
    if (notes.length === 0) return
    const entry = byOwner.get(key) ?? { owners: [], claims: [] }
    entry.owners.push(owner)
    for (const note of notes) {
      const seqs = session.known(note.sourceItemSeqs)
      const attribution = attribute(seqs, seqs.length === 0 ? [] : note.directives, textOf)
      for (const warning of attribution.warnings) warnings.push(warning)
      entry.claims.push({ seqs, attribution })
    }
    byOwner.set(key, entry)
  }
  for (const person of plan.people) {
    const owner: Owner = { _tag: "Person", contactId: person.contactId, name: person.name }
    addNotes(personKey(person.contactId, person.name), owner, person.notes)
  }
  addNotes(unattachedKey, { _tag: "Unattached" }, plan.unattached)
  const groups: Array<Group> = []
  byOwner.forEach((entry, key) => {
    const owner = canonicalOwner(entry.owners)!
    for (const claims of mergeClaims(entry.claims)) groups.push({ kind: "note", key, owner, claims, seqs: unionSeqs(claims) })
  })
  return groups
}

/** The `unclear` entries, accounted for and merged. */
const unclearGroups = (plan: Plan, session: Session): Array<Group> =>
  mergeClaims(plan.unclear.map((entry) => ({ seqs: session.known(entry.sourceItemSeqs), names: entry.candidates })))
    .map((entries) => {
      const seqs = unionSeqs(entries)
      const candidates = canonicalCandidates(
        entries.flatMap((entry) => entry.names).filter((name) => name.trim().length > 0)
          .map((name): Candidate => ({ _tag: "Person", contactId: null, name }))
      )
      return { kind: "unclear", key: `?${seqs[0]}`, candidates, seqs }
    })

/** The directives every claimant of each message agreed on, message by message. */
const agreedDirectives = (
  claims: ReadonlyArray<NoteClaim>,
  messages: ReadonlyArray<MessageText>,
  warnings: Array<PlanWarning>
): Array<NoteDirective> => {
  const only = claims.length === 1 ? [claims[0]!.attribution] : undefined
  const claimantsOf = new Map<number, Array<Attribution>>()
  if (only === undefined) {
    for (const claim of claims) {
      for (const seq of claim.seqs) {
        const claimants = claimantsOf.get(seq)
        if (claimants === undefined) claimantsOf.set(seq, [claim.attribution])
        else claimants.push(claim.attribution)
      }
    }
  }
  const directives: Array<NoteDirective> = []
  for (const message of messages) {
    for (const text of agreeOnMessage(message.seq, only ?? claimantsOf.get(message.seq)!, warnings)) {
      directives.push({ messageId: message.id, text })
    }
  }
  return directives
}

/**
 * Applies a decoded plan to a session's messages. Pure, total and deterministic: any numbers
 * and strings in the plan are repaired, never rejected, and plan order carries no information.
 */
export const applyPlan = (messages: ReadonlyArray<MessageText>, plan: Plan): Decisions => {
  const session = makeSession(messages)
  const message = (seq: number): MessageText => session.bySeq.get(seq)!
  const warnings: Array<PlanWarning> = []
  const groups = [...noteGroups(plan, session, warnings), ...unclearGroups(plan, session)]
  const { botOnly, contested, contestedSeqs, keptFromBot, unplanned } = contest(
    session.seqs,
    groups,
    new Set(session.known(plan.botMessages))
  )

  const notes: Array<AppliedNote> = []
  const questions: Array<Question> = []
  const instructions: Array<Instruction> = botOnly.map((seq) => ({
    seq,
    messageId: message(seq).id,
    kind: "message",
    text: message(seq).text
  }))
  const question = (reason: QuestionReason, seqs: Array<number>, candidates: Array<Candidate>) =>
    questions.push({ reason, seqs, messageIds: seqs.map((seq) => message(seq).id), candidates })
  for (const group of groups) {
    const seqs = contestedSeqs.size === 0 ? [...group.seqs] : group.seqs.filter((seq) => !contestedSeqs.has(seq))
    if (seqs.length === 0) continue
    if (group.kind === "unclear") {
      question("unclear", seqs, [...group.candidates])
      continue
    }
    const members = seqs.map(message)
    const assembled = assembleNote(members, agreedDirectives(group.claims, members, warnings))
    for (const warning of assembled.warnings) warnings.push(warning)
    notes.push({
      owner: group.owner,
      seqs,
      messageIds: members.map((member) => member.id),
      directives: assembled.cuts.map(({ messageId, seq, text }) => ({ messageId, seq, text })),
      body: assembled.body,
      segments: assembled.segments,
      mergedFrom: group.claims.length
    })
    for (const cut of assembled.cuts) {
      instructions.push({ seq: cut.seq, messageId: cut.messageId, kind: "directive", text: cut.text })
    }
  }
  for (const { groups: claimants, seqs } of contested) {
    question("contested", seqs, contestedCandidates(claimants))
    warnings.push(Warnings.contested(seqs))
  }
  for (const seq of keptFromBot) warnings.push(Warnings.botMessageKeptAsNote(seq))
  if (unplanned.length > 0) {
    question("unplanned", [...unplanned], [])
    warnings.push(Warnings.unplanned(unplanned))
  }
  const unknown = session.unknown()
  if (unknown.length > 0) warnings.push(Warnings.unknownSeqs(unknown))

  const bySmallestSeq = (a: { seqs: ReadonlyArray<number> }, b: { seqs: ReadonlyArray<number> }) =>
    Warnings.compareNumbers(a.seqs[0]!, b.seqs[0]!)
  return {
    notes: notes.sort(bySmallestSeq),
    questions: questions.sort(bySmallestSeq),
    instructions: instructions.sort((a, b) => Warnings.compareNumbers(a.seq, b.seq)),
    warnings: Warnings.canonicalWarnings(warnings)
  }
}
