/**
 * Decisions as specifications: `given(events).when(command).then(events)`, in the shape of
 * Emmett's `DeciderSpecification`. The state is folded from the given events with the decider's
 * own `evolve`, so a test states history as facts, never as a hand-built state.
 */
import type { Decider } from "@verbatim/domain/Decider"
import { Either, Equal } from "effect"
import { isDeepStrictEqual } from "node:util"

export type { Decider } from "@verbatim/domain/Decider"

/** Thrown when a decision is not the one specified; its message shows both, whole. */
export class SpecificationFailed extends Error {}

const show = (value: unknown): string =>
  JSON.stringify(value, (_key, v) => (v instanceof Map ? Object.fromEntries(v) : v instanceof Set ? [...v] : v), 2)

/** Plain data of a value (class instances and branded strings as JSON sees them), for whole comparison. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null))

const same = (a: unknown, b: unknown): boolean => Equal.equals(a, b) || isDeepStrictEqual(plain(a), plain(b))

export interface Then<Event, Rejection> {
  /** The decision appends exactly these events, in this order. */
  readonly then: (expected: ReadonlyArray<Event>) => void
  /** The decision refuses; `check` sees the refusal (assert it whole). */
  readonly thenRejects: (expected: Rejection | ((rejection: Rejection) => boolean)) => void
  /** The decision's events, for a test that must look inside them (a generated id, say). */
  readonly events: () => ReadonlyArray<Event>
}

export const DeciderSpec = {
  for: <State, Command, Event, Rejection>(decider: Decider<State, Command, Event, Rejection>) => ({
    given: (history: ReadonlyArray<Event>) => ({
      when: (command: Command): Then<Event, Rejection> => {
        const decided = () => decider.decide(history.reduce(decider.evolve, decider.initialState), command)
        return {
          then: (expected) => {
            const result = decided()
            if (Either.isLeft(result)) {
              throw new SpecificationFailed(`expected events\n${show(expected)}\nbut the command was refused:\n${show(result.left)}`)
            }
            if (!same(result.right, expected)) {
              throw new SpecificationFailed(`expected events\n${show(expected)}\nbut got\n${show(result.right)}`)
            }
          },
          thenRejects: (expected) => {
            const result = decided()
            if (Either.isRight(result)) {
              throw new SpecificationFailed(`expected a refusal, but got events\n${show(result.right)}`)
            }
            const ok = typeof expected === "function" ? (expected as (r: Rejection) => boolean)(result.left) : same(result.left, expected)
            if (!ok) throw new SpecificationFailed(`expected the refusal\n${show(expected)}\nbut got\n${show(result.left)}`)
          },
          events: () => {
            const result = decided()
            if (Either.isLeft(result)) throw new SpecificationFailed(`the command was refused:\n${show(result.left)}`)
            return result.right
          }
        }
      }
    })
  })
}
