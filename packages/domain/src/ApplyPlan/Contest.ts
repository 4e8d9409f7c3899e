/** Across owners: each slot's disposition once every owner's notes are merged — kept, contested, the bot's, or unplanned. */
import type { Candidate } from "../Decision.js"
import type { Group } from "./Merge.js"
import { canonicalCandidates } from "./Owners.js"
import { compareStrings } from "../Order.js"

/** Where each slot goes besides staying with its one claimant; every list ascending. */
export interface Dispositions {
  /** 1 for a slot claimed by two or more groups. */
  readonly contestedSlot: Uint8Array
  /** True when any slot is contested. */
  readonly anyContested: boolean
  /** Contested slots, one entry per set of claimants. */
  readonly contested: ReadonlyArray<{ readonly slots: Array<number>; readonly groups: ReadonlyArray<Group> }>
  /** Slots claimed only by `botMessages`. */
  readonly botOnly: ReadonlyArray<number>
  /** Slots a note kept although `botMessages` claimed them too. */
  readonly keptFromBot: ReadonlyArray<number>
  /** Slots nobody claimed. */
  readonly unplanned: ReadonlyArray<number>
}

/** The identity of a set of claimants: their keys in code-unit order, as JSON (a few keys, so an insertion sort). */
const claimantsKey = (claimants: ReadonlyArray<Group>): string => {
  const keys = claimants.map((group) => group.key)
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!
    let j = i - 1
    for (; j >= 0 && compareStrings(keys[j]!, key) > 0; j--) keys[j + 1] = keys[j]!
    keys[j + 1] = key
  }
  return JSON.stringify(keys)
}

/**
 * Decides every slot of a session of `size` slots from its claimants. Two or more groups make
 * it contested, grouped with every other slot claimed by exactly the same groups; `unclear`
 * keeps a slot it shares only with the bot; a note keeps one it shares only with the bot.
 */
export const contest = (size: number, groups: ReadonlyArray<Group>, botSlots: ReadonlyArray<number>): Dispositions => {
  const bot = new Uint8Array(size)
  for (const slot of botSlots) bot[slot] = 1
  // Most slots have one claimant: keep its index in a table, and list all of them only for the others.
  const firstGroup = new Int32Array(size).fill(-1)
  const contestedSlot = new Uint8Array(size)
  let more: Map<number, Array<number>> | undefined
  for (let g = 0; g < groups.length; g++) {
    for (const slot of groups[g]!.slots) {
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
  }
  const contested = new Map<string, { slots: Array<number>; groups: Array<Group> }>()
  const botOnly: Array<number> = []
  const keptFromBot: Array<number> = []
  const unplanned: Array<number> = []
  for (let slot = 0; slot < size; slot++) {
    if (contestedSlot[slot] === 1) {
      const claimants = more!.get(slot)!.map((g) => groups[g]!)
      const key = claimantsKey(claimants)
      const entry = contested.get(key) ?? { slots: [], groups: claimants }
      entry.slots.push(slot)
      contested.set(key, entry)
    } else if (firstGroup[slot] !== -1) {
      if (bot[slot] === 1 && groups[firstGroup[slot]!]!.kind === "note") keptFromBot.push(slot)
    } else if (bot[slot] === 1) botOnly.push(slot)
    else unplanned.push(slot)
  }
  return { contestedSlot, anyContested: more !== undefined, contested: [...contested.values()], botOnly, keptFromBot, unplanned }
}

/** The answers a contested question offers: every claimant owner, and every name `unclear` suggested. */
export const contestedCandidates = (groups: ReadonlyArray<Group>): Array<Candidate> =>
  canonicalCandidates(groups.flatMap((group) => group.kind === "note" ? [group.owner] : group.candidates))
