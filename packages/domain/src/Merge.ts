/** Merging within one owner: entries sharing a seq become one, transitively; directives are agreed per message. */
import type { PlanWarning } from "./Decision.js"
import { findVerbatim } from "./TextMatch.js"
import { directiveDisputed, directiveNotFound } from "./Warnings.js"

/** Anything claiming seqs (already filtered to the session's seqs). */
export interface Claim {
  readonly seqs: ReadonlyArray<number>
}

/**
 * Groups claims that share a seq, transitively (union-find): [1], [3], [1,3] form one group
 * whatever their order. Claims without seqs join no group. Groups keep the claims' relative order.
 */
export const mergeClaims = <A extends Claim>(claims: ReadonlyArray<A>): Array<Array<A>> => {
  const parent = claims.map((_, i) => i)
  const root = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!
      i = parent[i]!
    }
    return i
  }
  const firstClaimOf = new Map<number, number>()
  claims.forEach((claim, i) => {
    for (const seq of claim.seqs) {
      const first = firstClaimOf.get(seq)
      if (first === undefined) firstClaimOf.set(seq, i)
      else parent[root(i)] = root(first)
    }
  })
  const groups = new Map<number, Array<A>>()
  claims.forEach((claim, i) => {
    if (claim.seqs.length === 0) return
    const group = groups.get(root(i)) ?? []
    group.push(claim)
    groups.set(root(i), group)
  })
  return [...groups.values()]
}

/** A plan note's directives attributed to its messages. */
export interface Attribution {
  /** seq -> directive texts attributed to that message. */
  readonly bySeq: ReadonlyMap<number, ReadonlySet<string>>
  readonly warnings: ReadonlyArray<PlanWarning>
}

const nothingAttributed: Attribution = { bySeq: new Map(), warnings: [] }

/**
 * Attributes each distinct non-empty directive of one plan note to the first of its messages,
 * in seq order, that contains it verbatim. One that matches none of them removes nothing and
 * yields `directive-not-found`.
 */
export const attribute = (
  seqs: ReadonlyArray<number>,
  directives: ReadonlyArray<string>,
  textOf: (seq: number) => string
): Attribution => {
  if (directives.length === 0) return nothingAttributed
  const bySeq = new Map<number, Set<string>>()
  const warnings: Array<PlanWarning> = []
  for (const directive of new Set(directives)) {
    if (directive.length === 0) continue
    const seq = seqs.find((candidate) => findVerbatim(textOf(candidate), directive) !== -1)
    if (seq === undefined) warnings.push(directiveNotFound(directive, seqs))
    else bySeq.set(seq, (bySeq.get(seq) ?? new Set()).add(directive))
  }
  return { bySeq, warnings }
}

/**
 * The directives every claimant attributed to one message (the others are disputed and stay
 * in the note, with a `directive-disputed` warning each), sorted.
 */
export const agreeOnMessage = (
  seq: number,
  claimants: ReadonlyArray<Attribution>,
  warnings: Array<PlanWarning>
): Array<string> => {
  if (claimants.every((claimant) => !claimant.bySeq.has(seq))) return []
  if (claimants.length === 1) {
    const only = claimants[0]!.bySeq.get(seq)!
    return only.size === 1 ? [...only] : [...only].sort()
  }
  const counts = new Map<string, number>()
  for (const claimant of claimants) {
    for (const directive of claimant.bySeq.get(seq) ?? []) counts.set(directive, (counts.get(directive) ?? 0) + 1)
  }
  const agreed: Array<string> = []
  for (const [directive, count] of counts) {
    if (count === claimants.length) agreed.push(directive)
    else warnings.push(directiveDisputed(directive, seq))
  }
  return agreed.sort()
}
