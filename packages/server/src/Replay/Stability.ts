/**
 * How often a prompt agrees with itself: a session planned K times, each message's placement in
 * every repeat compared with the first. The share that moves is the noise floor a change is
 * judged against (an A/A run measures it for the live prompt).
 */
import type { Decisions } from "@verbatim/domain/ApplyPlan/ApplyPlan"
import type { Directory } from "@verbatim/domain/Eval/Directory"
import { placements, samePlacement } from "@verbatim/domain/Eval/Score"

/** Of `seqs`, how many every run placed as the first run did. */
export const stability = (seqs: ReadonlyArray<number>, runs: ReadonlyArray<ReadonlyArray<Decisions>>, people: Directory) => {
  const placed = runs.map((run) => placements(run, people))
  const missing = { _tag: "Missing" } as const
  const stable = seqs.filter((seq) =>
    placed.every((p) => samePlacement(p.get(seq) ?? missing, placed[0]!.get(seq) ?? missing))
  ).length
  return { runs: runs.length, stable, messages: seqs.length }
}

/** The share of messages that moved between repeats, over sessions: 0 when every repeat agreed. */
export const noiseFloor = (sessions: ReadonlyArray<{ readonly stable: number; readonly messages: number }>): number => {
  const messages = sessions.reduce((n, s) => n + s.messages, 0)
  return messages === 0 ? 0 : 1 - sessions.reduce((n, s) => n + s.stable, 0) / messages
}
