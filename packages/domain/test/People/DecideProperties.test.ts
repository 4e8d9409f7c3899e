/** The people decider over any run of merges and unmerges: no chain loops, an unmerge names the end of its chain, and a merge undone at once leaves things as they were. */
import { describe, expect, it } from "@effect/vitest"
import { at, user } from "@verbatim/testkit/Given"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { Either } from "effect"
import fc from "fast-check"
import { PersonId } from "../../src/Ids.js"
import { decide, evolve, initialState, liveOf, type PeopleCommand, type PeopleState } from "../../src/People/Decide.js"

const ids = ["p0", "p1", "p2", "p3"].map((id) => PersonId.make(id))
const known = ids.map((personId) => ({ personId, name: `Person ${personId}` }))
const common = { user, asker: user, known, now: at(100) }

const command = fc.oneof(
  fc.record({ _tag: fc.constant("Merge" as const), from: fc.constantFrom(...ids), into: fc.constantFrom(...ids) }),
  fc.record({ _tag: fc.constant("Unmerge" as const), personId: fc.constantFrom(...ids) })
).map((c): PeopleCommand => ({ ...common, ...c }))

/** Every command decided in turn, the accepted ones' events folded; each state along the way. */
const run = (commands: ReadonlyArray<PeopleCommand>) => {
  const states: Array<PeopleState> = [initialState]
  for (const c of commands) {
    const state = states[states.length - 1]!
    const decided = decide(state, c)
    if (Either.isLeft(decided)) continue
    for (const event of decided.right) {
      if (event._tag === "PeopleUnmerged") {
        expect(state.merged.has(event.from) || event.from === event.personId).toBe(false)
        expect(event.from).toBe(liveOf(state, event.personId))
      }
    }
    states.push(decided.right.reduce(evolve, state))
  }
  return states
}

describe("people decider properties", () => {
  it("no chain of merges loops: every person leads to one not merged away", () => {
    fc.assert(fc.property(fc.array(command, { maxLength: 30 }), (commands) => {
      for (const state of run(commands)) for (const id of ids) expect(state.merged.has(liveOf(state, id))).toBe(false)
    }), { numRuns: propertyRuns(500) })
  })

  it("a merge undone at once leaves the merges as they were", () => {
    fc.assert(fc.property(fc.array(command, { maxLength: 20 }), fc.constantFrom(...ids), fc.constantFrom(...ids), (commands, from, into) => {
      const before = run(commands).at(-1)!
      const merged = decide(before, { ...common, _tag: "Merge", from, into })
      if (Either.isLeft(merged)) return
      const after = merged.right.reduce(evolve, before)
      const unmerged = decide(after, { ...common, _tag: "Unmerge", personId: from })
      expect(Either.map(unmerged, (events) => [...events.reduce(evolve, after).merged])).toEqual(Either.right([...before.merged]))
    }), { numRuns: propertyRuns(500) })
  })
})
