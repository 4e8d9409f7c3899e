/** `applyPlan`: repair, never reject — every seq of the session ends in exactly one note, question or instruction. */
import { makeSession } from "./Accounting.js"
import { assembleNote, type NoteDirective } from "./Assembly.js"
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

interface NoteClaim {
  readonly seqs: ReadonlyArray<number>
  readonly attribution: Attribution
}

type Group =
  | { readonly kind: "note"; readonly key: string; readonly owner: Owner; readonly claims: ReadonlyArray<NoteClaim> }
  | { readonly kind: "unclear"; readonly key: string; readonly candidates: ReadonlyArray<Candidate> }

const unionSeqs = (claims: ReadonlyArray<{ readonly seqs: ReadonlyArray<number> }>): Array<number> =>
  [...new Set(claims.flatMap((claim) => claim.seqs))].sort(Warnings.compareNumbers)

/**
 * Applies a decoded plan to a session's messages. Pure, total and deterministic: any numbers
 * and strings in the plan are repaired, never rejected, and plan order carries no information.
 */
export const applyPlan = (messages: ReadonlyArray<MessageText>, plan: Plan): Decisions => {
  const session = makeSession(messages)
  const message = (seq: number): MessageText => session.bySeq.get(seq)!
  const textOf = (seq: number): string => message(seq).text
  const warnings: Array<PlanWarning> = []

  const byOwner = new Map<string, { owners: Array<Owner>; claims: Array<NoteClaim> }>()
  const addNote = (key: string, owner: Owner, note: PlanNote) => {
    const seqs = session.known(note.sourceItemSeqs)
    const attribution = attribute(seqs, seqs.length === 0 ? [] : note.directives, textOf)
    warnings.push(...attribution.warnings)
    const entry = byOwner.get(key) ?? { owners: [], claims: [] }
    entry.owners.push(owner)
    entry.claims.push({ seqs, attribution })
    byOwner.set(key, entry)
  }
  for (const person of plan.people) {
    const owner: Owner = { _tag: "Person", contactId: person.contactId, name: person.name }
    for (const note of person.notes) addNote(personKey(person.contactId, person.name), owner, note)
  }
  for (const note of plan.unattached) addNote(unattachedKey, { _tag: "Unattached" }, note)

  const groupSeqs = new Map<Group, Array<number>>()
  for (const [key, entry] of byOwner) {
    const owner = canonicalOwner(entry.owners)!
    for (const claims of mergeClaims(entry.claims)) groupSeqs.set({ kind: "note", key, owner, claims }, unionSeqs(claims))
  }
  const unclear = plan.unclear.map((entry) => ({ seqs: session.known(entry.sourceItemSeqs), names: entry.candidates }))
  for (const entries of mergeClaims(unclear)) {
    const seqs = unionSeqs(entries)
    const candidates = canonicalCandidates(
      entries.flatMap((entry) => entry.names).filter((name) => name.trim().length > 0)
        .map((name): Candidate => ({ _tag: "Person", contactId: null, name }))
    )
    groupSeqs.set({ kind: "unclear", key: `?${seqs[0]}`, candidates }, seqs)
  }

  const claimedBy = new Map<number, Array<Group>>()
  for (const [group, seqs] of groupSeqs) {
    for (const seq of seqs) {
      const groups = claimedBy.get(seq)
      if (groups === undefined) claimedBy.set(seq, [group])
      else groups.push(group)
    }
  }
  const bot = new Set(session.known(plan.botMessages))
  const contested = new Map<string, { seqs: Array<number>; groups: ReadonlyArray<Group> }>()
  const contestedSeqs = new Set<number>()
  const unplanned: Array<number> = []
  const instructions: Array<Instruction> = []
  for (const seq of session.seqs) {
    const claimants = claimedBy.get(seq) ?? []
    if (claimants.length > 1) {
      const key = JSON.stringify(claimants.map((group) => group.key).sort())
      const entry = contested.get(key) ?? { seqs: [], groups: claimants }
      entry.seqs.push(seq)
      contested.set(key, entry)
      contestedSeqs.add(seq)
    } else if (claimants.length === 1) {
      if (bot.has(seq) && claimants[0]!.kind === "note") warnings.push(Warnings.botMessageKeptAsNote(seq))
    } else if (bot.has(seq)) {
      instructions.push({ seq, messageId: message(seq).id, kind: "message", text: textOf(seq) })
    } else unplanned.push(seq)
  }

  const notes: Array<AppliedNote> = []
  const questions: Array<Question> = []
  const question = (reason: QuestionReason, seqs: Array<number>, candidates: Array<Candidate>) =>
    questions.push({ reason, seqs, messageIds: seqs.map((seq) => message(seq).id), candidates })
  for (const [group, all] of groupSeqs) {
    const seqs = all.filter((seq) => !contestedSeqs.has(seq))
    if (seqs.length === 0) continue
    if (group.kind === "unclear") {
      question("unclear", seqs, [...group.candidates])
      continue
    }
    const claimantsOf = new Map<number, Array<Attribution>>()
    for (const claim of group.claims) {
      for (const seq of claim.seqs) {
        const claimants = claimantsOf.get(seq)
        if (claimants === undefined) claimantsOf.set(seq, [claim.attribution])
        else claimants.push(claim.attribution)
      }
    }
    const directives: Array<NoteDirective> = []
    for (const seq of seqs) {
      for (const text of agreeOnMessage(seq, claimantsOf.get(seq)!, warnings)) {
        directives.push({ messageId: message(seq).id, text })
      }
    }
    const assembled = assembleNote(seqs.map(message), directives)
    warnings.push(...assembled.warnings)
    notes.push({
      owner: group.owner,
      seqs,
      messageIds: seqs.map((seq) => message(seq).id),
      directives: assembled.cuts.map(({ messageId, seq, text }) => ({ messageId, seq, text })),
      body: assembled.body,
      segments: assembled.segments,
      mergedFrom: group.claims.length
    })
    for (const cut of assembled.cuts) {
      instructions.push({ seq: cut.seq, messageId: cut.messageId, kind: "directive", text: cut.text })
    }
  }
  for (const { groups, seqs } of contested.values()) {
    const candidates = groups.flatMap((group) => group.kind === "note" ? [group.owner] : group.candidates)
    question("contested", seqs, canonicalCandidates(candidates))
    warnings.push(Warnings.contested(seqs))
  }
  if (unplanned.length > 0) {
    question("unplanned", unplanned, [])
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
