/** Across owners: each seq's disposition once every owner's notes are merged — kept, contested, the bot's, or unplanned. */
import type { Candidate, Owner } from "./Decision.js"
import type { Attribution } from "./Merge.js"
import { canonicalCandidates } from "./Owners.js"

/** A plan note after accounting: its seqs in the session, and its directives attributed to them. */
export interface NoteClaim {
  readonly seqs: ReadonlyArray<number>
  readonly attribution: Attribution
}

/** One owner's merged notes, or one merged `unclear` entry: a single claimant of its seqs. */
export type Group =
  | {
    readonly kind: "note"
    readonly key: string
    readonly owner: Owner
    readonly claims: ReadonlyArray<NoteClaim>
    readonly seqs: ReadonlyArray<number>
  }
  | {
    readonly kind: "unclear"
    readonly key: string
    readonly candidates: ReadonlyArray<Candidate>
    readonly seqs: ReadonlyArray<number>
  }

/** Where each seq goes besides staying with its one claimant. */
export interface Dispositions {
  /** Contested seqs, one entry per set of claimants; seqs ascending. */
  readonly contested: ReadonlyArray<{ readonly seqs: Array<number>; readonly groups: ReadonlyArray<Group> }>
  readonly contestedSeqs: ReadonlySet<number>
  /** Seqs claimed only by `botMessages`. */
  readonly botOnly: ReadonlyArray<number>
  /** Seqs a note kept although `botMessages` claimed them too. */
  readonly keptFromBot: ReadonlyArray<number>
  /** Seqs nobody claimed. */
  readonly unplanned: ReadonlyArray<number>
}

/**
 * Decides every seq of the session (ascending) from its claimants. Two or more groups make
 * it contested, grouped with every other seq claimed by exactly the same groups; `unclear`
 * keeps a seq it shares only with the bot; a note keeps one it shares only with the bot.
 */
export const contest = (
  seqs: ReadonlyArray<number>,
  groups: ReadonlyArray<Group>,
  bot: ReadonlySet<number>
): Dispositions => {
  // Most seqs have one claimant: keep that one without an array, and list only the others.
  const first = new Map<number, Group>()
  const more = new Map<number, Array<Group>>()
  for (const group of groups) {
    for (const seq of group.seqs) {
      const claimant = first.get(seq)
      const others = more.get(seq)
      if (claimant === undefined) first.set(seq, group)
      else if (others === undefined) more.set(seq, [claimant, group])
      else others.push(group)
    }
  }
  const contested = new Map<string, { seqs: Array<number>; groups: ReadonlyArray<Group> }>()
  const contestedSeqs = new Set<number>()
  const botOnly: Array<number> = []
  const keptFromBot: Array<number> = []
  const unplanned: Array<number> = []
  for (const seq of seqs) {
    const claimants = more.get(seq)
    const claimant = first.get(seq)
    if (claimants !== undefined) {
      const key = JSON.stringify(claimants.map((group) => group.key).sort())
      const entry = contested.get(key) ?? { seqs: [], groups: claimants }
      entry.seqs.push(seq)
      contested.set(key, entry)
      contestedSeqs.add(seq)
    } else if (claimant !== undefined) {
      if (claimant.kind === "note" && bot.has(seq)) keptFromBot.push(seq)
    } else if (bot.has(seq)) botOnly.push(seq)
    else unplanned.push(seq)
  }
  return { contested: [...contested.values()], contestedSeqs, botOnly, keptFromBot, unplanned }
}

/** The answers a contested question offers: every claimant owner, and every name `unclear` suggested. */
export const contestedCandidates = (groups: ReadonlyArray<Group>): Array<Candidate> =>
  canonicalCandidates(groups.flatMap((group) => group.kind === "note" ? [group.owner] : group.candidates))
