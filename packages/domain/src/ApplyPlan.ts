/** `applyPlan`: repair, never reject — every seq of the session ends in exactly one note, question or instruction. */
import { makeSession, makeSlotIndex, type Session, type SlotIndex } from "./Accounting.js"
import { assembleNote, type NoteDirective, separator, tidy } from "./Assembly.js"
import { contest, contestedCandidates, type Group, type NoteClaim } from "./Contest.js"
import type { Candidate, DirectiveCut, Owner, PlanWarning, QuestionReason, Segment } from "./Decision.js"
import type { MessageId } from "./Ids.js"
import type { MessageText } from "./Message.js"
import { agreeOnMessage, attribute, type Attribution, mergeClaims } from "./Merge.js"
import { canonicalCandidates, canonicalOwner, personKey, unattachedKey } from "./Owners.js"
import type { Plan, PlanNote } from "./Plan.js"
import { findVerbatim, isWhitespace } from "./TextMatch.js"
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

/** A plan note in slot terms: its slots (ascending, distinct) and its attributed directives `[from, to)`. */
interface SlotClaim {
  readonly slots: ReadonlyArray<number>
  readonly from: number
  readonly to: number
}

type SlotGroup =
  | {
    readonly kind: "note"
    readonly key: string
    readonly owner: Owner
    readonly claims: ReadonlyArray<SlotClaim>
    readonly slots: ReadonlyArray<number>
  }
  | {
    readonly kind: "unclear"
    readonly key: string
    readonly candidates: ReadonlyArray<Candidate>
    readonly slots: ReadonlyArray<number>
  }

const bySlot = (a: number, b: number): number => a - b

/**
 * Sorts `items[from, to)` in place, stably. Small ranges (nearly all of them) use insertion
 * sort, because `Array.prototype.sort` allocates its merge state on every call.
 */
const sortRange = (items: Array<number>, from: number, to: number, compare: (a: number, b: number) => number): void => {
  if (to - from > 24) {
    const sorted = items.slice(from, to).sort(compare)
    for (let i = 0; i < sorted.length; i++) items[from + i] = sorted[i]!
    return
  }
  for (let i = from + 1; i < to; i++) {
    const item = items[i]!
    let j = i - 1
    while (j >= from && compare(items[j]!, item) > 0) {
      items[j + 1] = items[j]!
      j--
    }
    items[j + 1] = item
  }
}

/** The distinct directives in first-occurrence order (a `Set` only when there are many). */
const distinct = (directives: ReadonlyArray<string>): ReadonlyArray<string> => {
  if (directives.length > 16) return [...new Set(directives)]
  let unique: Array<string> | undefined
  for (let i = 1; i < directives.length; i++) {
    if (directives.lastIndexOf(directives[i]!, i - 1) === -1) unique?.push(directives[i]!)
    else unique ??= directives.slice(0, i)
  }
  return unique ?? directives
}

/** True when two of the messages share an id (assembly keys directives by id). */
const sharesId = (index: SlotIndex, slots: ReadonlyArray<number>): boolean => {
  if (slots.length > 8) return new Set(slots.map((slot) => index.messages[slot]!.id)).size !== slots.length
  for (let i = 1; i < slots.length; i++) {
    const id = index.messages[slots[i]!]!.id
    for (let j = 0; j < i; j++) if (index.messages[slots[j]!]!.id === id) return true
  }
  return false
}

/** One shared separator segment: segments are read, never mutated. */
const separatorSegment: Segment = { _tag: "Separator", text: separator }

/**
 * `applyPlanGeneral` for a session indexed by slot, with the same output: seqs become slots
 * (array indexes instead of Map keys), directives are attributed into three flat arrays, merging
 * and contesting mark typed arrays, and each directive is searched for once. Returns
 * `undefined` when a note holds two messages with one id, which only the general path handles.
 */
const applyBySlot = (index: SlotIndex, plan: Plan): Decisions | undefined => {
  const { messages, seqs: seqOf } = index
  const size = messages.length
  const warnings: Array<PlanWarning> = []
  const unknown = new Set<number>()
  const known = (seqs: ReadonlyArray<number>): Array<number> => {
    const found: Array<number> = []
    let ascending = true
    for (let i = 0; i < seqs.length; i++) {
      const seq = seqs[i]!
      const slot = index.slotOf(seq)
      if (slot === -1) unknown.add(seq === 0 ? 0 : seq)
      else {
        if (found.length > 0 && found[found.length - 1]! >= slot) ascending = false
        found.push(slot)
      }
    }
    if (ascending) return found
    sortRange(found, 0, found.length, bySlot)
    let kept = 1
    for (let i = 1; i < found.length; i++) if (found[i] !== found[kept - 1]) found[kept++] = found[i]!
    found.length = kept
    return found
  }
  const seqsOf = (slots: ReadonlyArray<number>): Array<number> => slots.map((slot) => seqOf[slot]!)

  // Attributions: directive `i` went to `attributedSlot[i]`, where it starts at `attributedAt[i]`.
  const attributedSlot: Array<number> = []
  const attributedText: Array<string> = []
  const attributedAt: Array<number> = []
  const claimOf = (note: PlanNote): SlotClaim => {
    const slots = known(note.sourceItemSeqs)
    const from = attributedText.length
    if (slots.length > 0 && note.directives.length > 0) {
      const directives = distinct(note.directives)
      for (let d = 0; d < directives.length; d++) {
        const directive = directives[d]!
        if (directive.length === 0) continue
        let at = -1
        let slot = -1
        for (let k = 0; k < slots.length; k++) {
          const candidate = slots[k]!
          at = findVerbatim(messages[candidate]!.text, directive)
          if (at !== -1) {
            slot = candidate
            break
          }
        }
        if (slot === -1) warnings.push(Warnings.directiveNotFound(directive, seqsOf(slots)))
        else {
          attributedSlot.push(slot)
          attributedText.push(directive)
          attributedAt.push(at)
        }
      }
    }
    return { slots, from, to: attributedText.length }
  }

  const byOwner = new Map<string, { owners: Array<Owner>; claims: Array<SlotClaim> }>()
  const addNotes = (key: string, owner: Owner, notes: ReadonlyArray<PlanNote>) => {
    if (notes.length === 0) return
    const entry = byOwner.get(key) ?? { owners: [], claims: [] }
    entry.owners.push(owner)
    for (const note of notes) entry.claims.push(claimOf(note))
    byOwner.set(key, entry)
  }
  for (const person of plan.people) {
    addNotes(personKey(person.contactId, person.name), { _tag: "Person", contactId: person.contactId, name: person.name }, person.notes)
  }
  addNotes(unattachedKey, { _tag: "Unattached" }, plan.unattached)

  // Union-find over one owner's claims; `stamp` marks which merge last saw a slot.
  const stamp = new Int32Array(size)
  const firstClaim = new Int32Array(size)
  let pass = 0
  const merge = <A extends { readonly slots: ReadonlyArray<number> }>(claims: ReadonlyArray<A>): Array<Array<A>> => {
    if (claims.length === 1) return claims[0]!.slots.length === 0 ? [] : [[claims[0]!]]
    pass++
    const parent = new Int32Array(claims.length)
    for (let i = 0; i < claims.length; i++) parent[i] = i
    const root = (i: number): number => {
      while (parent[i] !== i) {
        parent[i] = parent[parent[i]!]!
        i = parent[i]!
      }
      return i
    }
    for (let i = 0; i < claims.length; i++) {
      for (const slot of claims[i]!.slots) {
        if (stamp[slot] !== pass) {
          stamp[slot] = pass
          firstClaim[slot] = i
        } else parent[root(i)] = root(firstClaim[slot]!)
      }
    }
    const groupOf = new Int32Array(claims.length).fill(-1)
    const groups: Array<Array<A>> = []
    for (let i = 0; i < claims.length; i++) {
      if (claims[i]!.slots.length === 0) continue
      const r = root(i)
      if (groupOf[r] === -1) {
        groupOf[r] = groups.length
        groups.push([claims[i]!])
      } else groups[groupOf[r]!]!.push(claims[i]!)
    }
    return groups
  }
  const union = (claims: ReadonlyArray<{ readonly slots: ReadonlyArray<number> }>): ReadonlyArray<number> => {
    if (claims.length === 1) return claims[0]!.slots
    pass++
    const slots: Array<number> = []
    let ascending = true
    for (const claim of claims) {
      for (const slot of claim.slots) {
        if (stamp[slot] === pass) continue
        stamp[slot] = pass
        if (slots.length > 0 && slots[slots.length - 1]! > slot) ascending = false
        slots.push(slot)
      }
    }
    if (!ascending) sortRange(slots, 0, slots.length, bySlot)
    return slots
  }

  const groups: Array<SlotGroup> = []
  byOwner.forEach((entry, key) => {
    const owner = canonicalOwner(entry.owners)!
    for (const claims of merge(entry.claims)) groups.push({ kind: "note", key, owner, claims, slots: union(claims) })
  })
  const unclear = merge(plan.unclear.map((entry) => ({ slots: known(entry.sourceItemSeqs), names: entry.candidates })))
  for (const entries of unclear) {
    const slots = union(entries)
    const candidates = canonicalCandidates(
      entries.flatMap((entry) => entry.names).filter((name) => name.trim().length > 0)
        .map((name): Candidate => ({ _tag: "Person", contactId: null, name }))
    )
    groups.push({ kind: "unclear", key: `?${seqOf[slots[0]!]}`, candidates, slots })
  }
  const bot = new Uint8Array(size)
  for (const slot of known(plan.botMessages)) bot[slot] = 1

  // Contest: the first claimant of each slot, and the full list only for slots with more.
  const firstGroup = new Int32Array(size).fill(-1)
  const contestedSlot = new Uint8Array(size)
  let more: Map<number, Array<number>> | undefined
  groups.forEach((group, g) => {
    for (const slot of group.slots) {
      const first = firstGroup[slot]!
      if (first === -1) firstGroup[slot] = g
      else {
        more ??= new Map()
        const others = more.get(slot)
        if (others === undefined) more.set(slot, [first, g])
        else others.push(g)
        contestedSlot[slot] = 1
      }
    }
  })
  const contested = new Map<string, { seqs: Array<number>; groups: Array<SlotGroup> }>()
  const instructions: Array<Instruction> = []
  const keptFromBot: Array<number> = []
  const unplanned: Array<number> = []
  for (let slot = 0; slot < size; slot++) {
    if (contestedSlot[slot] === 1) {
      const claimants = more!.get(slot)!.map((g) => groups[g]!)
      const key = JSON.stringify(claimants.map((group) => group.key).sort())
      const entry = contested.get(key) ?? { seqs: [], groups: claimants }
      entry.seqs.push(seqOf[slot]!)
      contested.set(key, entry)
    } else if (firstGroup[slot] !== -1) {
      if (bot[slot] === 1 && groups[firstGroup[slot]!]!.kind === "note") keptFromBot.push(seqOf[slot]!)
    } else if (bot[slot] === 1) {
      const message = messages[slot]!
      instructions.push({ seq: seqOf[slot]!, messageId: message.id, kind: "message", text: message.text })
    } else unplanned.push(seqOf[slot]!)
  }

  const notes: Array<AppliedNote> = []
  const questions: Array<Question> = []
  const question = (reason: QuestionReason, seqs: Array<number>, candidates: Array<Candidate>) =>
    questions.push({ reason, seqs, messageIds: seqs.map((seq) => messages[index.slotOf(seq)]!.id), candidates })
  // Per group: how many of its claims hold each slot (`counted` marks the group that counted it).
  const claimants = new Int32Array(size)
  const counted = new Int32Array(size)
  let groupPass = 0
  const agreed: Array<number> = []
  const all: Array<number> = []
  const byMessageThenText = (a: number, b: number): number =>
    attributedSlot[a]! - attributedSlot[b]! || Warnings.compareStrings(attributedText[a]!, attributedText[b]!)
  // Assembly's canonical cut order: first occurrence, longer first, then text.
  const byCutOrder = (a: number, b: number): number =>
    attributedAt[a]! - attributedAt[b]! ||
    (attributedAt[b]! + attributedText[b]!.length) - (attributedAt[a]! + attributedText[a]!.length) ||
    Warnings.compareStrings(attributedText[a]!, attributedText[b]!)
  const cutRanges: Array<number> = []
  const kept: Array<number> = []
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!
    let slots = group.slots
    if (more !== undefined) {
      let any = false
      for (let i = 0; i < slots.length; i++) if (contestedSlot[slots[i]!] === 1) any = true
      if (any) slots = slots.filter((slot) => contestedSlot[slot] === 0)
    }
    if (slots.length === 0) continue
    if (group.kind === "unclear") {
      question("unclear", seqsOf(slots), [...group.candidates])
      continue
    }
    if (sharesId(index, slots)) return undefined

    // The directives every claimant of a message attributed to it, by message then text.
    agreed.length = 0
    const { claims } = group
    if (claims.length === 1) {
      const { from, to } = claims[0]!
      for (let i = from; i < to; i++) if (contestedSlot[attributedSlot[i]!] === 0) agreed.push(i)
      sortRange(agreed, 0, agreed.length, byMessageThenText)
    } else {
      groupPass++
      all.length = 0
      for (let c = 0; c < claims.length; c++) {
        const claim = claims[c]!
        for (let k = 0; k < claim.slots.length; k++) {
          const slot = claim.slots[k]!
          if (counted[slot] !== groupPass) {
            counted[slot] = groupPass
            claimants[slot] = 0
          }
          claimants[slot] = claimants[slot]! + 1
        }
        for (let i = claim.from; i < claim.to; i++) if (contestedSlot[attributedSlot[i]!] === 0) all.push(i)
      }
      sortRange(all, 0, all.length, byMessageThenText)
      for (let i = 0; i < all.length;) {
        const slot = attributedSlot[all[i]!]!
        const text = attributedText[all[i]!]!
        let j = i + 1
        while (j < all.length && attributedSlot[all[j]!] === slot && attributedText[all[j]!] === text) j++
        if (j - i === claimants[slot]) agreed.push(all[i]!)
        else warnings.push(Warnings.directiveDisputed(text, messages[slot]!.seq))
        i = j
      }
    }

    // Assembly, message by message: cut the agreed directives, tidy, and join.
    const seqs = seqsOf(slots)
    const messageIds = slots.map((slot) => messages[slot]!.id)
    const directives: Array<DirectiveCut> = []
    const segments: Array<Segment> = []
    let body = ""
    let next = 0
    for (let k = 0; k < slots.length; k++) {
      const slot = slots[k]!
      const message = messages[slot]!
      const { id: messageId, text } = message
      let start = 0
      let end = text.length
      let ranges: Array<number> | undefined
      if (next < agreed.length && attributedSlot[agreed[next]!] === slot) {
        const first = next
        while (next < agreed.length && attributedSlot[agreed[next]!] === slot) next++
        sortRange(agreed, first, next, byCutOrder)
        // Cuts carry the message's own seq, as assembly reports it; an overlapping one stays.
        cutRanges.length = 0
        let reach = 0
        for (let a = first; a < next; a++) {
          const i = agreed[a]!
          const cutText = attributedText[i]!
          const cutStart = attributedAt[i]!
          if (cutStart < reach) warnings.push(Warnings.directiveOverlap(cutText, message.seq))
          else {
            reach = cutStart + cutText.length
            cutRanges.push(cutStart, reach)
            directives.push({ messageId, seq: message.seq, text: cutText })
            instructions.push({ seq: message.seq, messageId, kind: "directive", text: cutText })
          }
        }
        ranges = tidy(message, cutRanges, undefined, kept)
        if (ranges.length === 0) continue
      } else {
        while (start < end && isWhitespace(text.charCodeAt(start))) start++
        while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--
        if (end === start) continue
      }
      if (segments.length > 0) {
        segments.push(separatorSegment)
        body += separator
      }
      if (ranges === undefined) {
        segments.push({ _tag: "Slice", messageId, start, end })
        body += text.slice(start, end)
      } else {
        for (let i = 0; i < ranges.length; i += 2) {
          segments.push({ _tag: "Slice", messageId, start: ranges[i]!, end: ranges[i + 1]! })
          body += text.slice(ranges[i]!, ranges[i + 1]!)
        }
      }
    }
    notes.push({ owner: group.owner, seqs, messageIds, directives, body, segments, mergedFrom: claims.length })
  }
  for (const { groups: claimantGroups, seqs } of contested.values()) {
    question(
      "contested",
      seqs,
      canonicalCandidates(claimantGroups.flatMap((group) => group.kind === "note" ? [group.owner] : group.candidates))
    )
    warnings.push(Warnings.contested(seqs))
  }
  for (const seq of keptFromBot) warnings.push(Warnings.botMessageKeptAsNote(seq))
  if (unplanned.length > 0) {
    question("unplanned", [...unplanned], [])
    warnings.push(Warnings.unplanned(unplanned))
  }
  if (unknown.size > 0) warnings.push(Warnings.unknownSeqs([...unknown].sort(Warnings.compareNumbers)))

  const bySmallestSeq = (a: { seqs: ReadonlyArray<number> }, b: { seqs: ReadonlyArray<number> }) => a.seqs[0]! - b.seqs[0]!
  return {
    notes: notes.sort(bySmallestSeq),
    questions: questions.sort(bySmallestSeq),
    instructions: instructions.sort((a, b) => a.seq - b.seq),
    warnings: Warnings.canonicaliseWarnings(warnings)
  }
}

/**
 * Applies a decoded plan to a session's messages. Pure, total and deterministic: any numbers
 * and strings in the plan are repaired, never rejected, and plan order carries no information.
 */
export const applyPlan = (messages: ReadonlyArray<MessageText>, plan: Plan): Decisions => {
  const index = makeSlotIndex(messages)
  return (index === undefined ? undefined : applyBySlot(index, plan)) ?? applyPlanGeneral(messages, plan)
}

/** The general path: any seqs, any message ids. */
const applyPlanGeneral = (messages: ReadonlyArray<MessageText>, plan: Plan): Decisions => {
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
