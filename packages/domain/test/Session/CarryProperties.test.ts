/**
 * Properties of promotion: for any plans, any curation and answers between them, and any new
 * plan, every message ends in exactly one place, and every correction is in effect or asked.
 */
import { describe, expect, it } from "@effect/vitest"
import { at, user } from "@verbatim/testkit/Given"
import { adversarialPlan, session } from "@verbatim/testkit/Arbitraries"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { Either } from "effect"
import fc from "fast-check"
import type { Event } from "../../src/Events.js"
import { countingIds, type IdSupply, type MessageId } from "../../src/Ids.js"
import type { Plan } from "../../src/Plan.js"
import { Command } from "../../src/Session/Commands.js"
import { unkept } from "../../src/Session/Corrections.js"
import { sessionDecider } from "../../src/Session/Decide.js"
import { plannable, type SessionState } from "../../src/Session/State.js"
import { chunk, closedSession } from "./fixtures.js"

type Op = { readonly kind: "move" | "split" | "discard" | "restore" | "answer"; readonly pick: number; readonly at: number; readonly to: number }

const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom("move", "move", "split", "split", "discard", "restore", "answer"),
  pick: fc.nat(),
  at: fc.nat(),
  to: fc.nat({ max: 4 })
})

/** A session's history as the decider builds it, one command at a time; refused commands leave it as it is. */
class History {
  events: Array<Event>
  readonly ids: IdSupply = countingIds()
  constructor(texts: ReadonlyArray<string>) {
    this.events = closedSession(...texts)
  }
  get state(): SessionState {
    return this.events.reduce(sessionDecider.evolve, sessionDecider.initialState)
  }
  get known() {
    return this.events.flatMap((e) => e._tag === "PersonAdded" ? [{ personId: e.personId, name: e.name }] : [])
  }
  run(command: Command): ReadonlyArray<Event> {
    const decided = sessionDecider.decide(this.state, command)
    if (Either.isLeft(decided)) return []
    this.events = [...this.events, ...decided.right]
    return decided.right
  }
  plan(plan: Plan, count: number, replan: boolean) {
    return this.run(Command.RecordPlans({
      prompt: { version: "v1", hash: "sha256:abc" },
      plans: [chunk(plan, 1, count)],
      known: this.known,
      revision: this.state.revision,
      replan,
      ids: this.ids,
      now: at(100)
    }))
  }
  curate(o: Op) {
    const state = this.state
    const notes = [...state.notes.values()]
    const note = notes[o.pick % Math.max(1, notes.length)]
    const targets = [
      ...this.known.map((p) => ({ _tag: "Person" as const, contactId: p.personId as string, name: p.name })),
      { _tag: "Person" as const, contactId: null, name: `New ${o.to}` },
      { _tag: "Unattached" as const }
    ]
    const to = targets[o.to % targets.length]!
    const common = { asker: user, now: at(50) }
    if (o.kind === "answer") {
      const open = [...state.questions.values()].filter((q) => q.status === "open")
      const question = open[o.pick % Math.max(1, open.length)]
      if (question === undefined) return
      this.run(Command.Answer({ questionId: question.questionId, choice: { _tag: "Option", index: o.to % 3 }, known: this.known, ids: this.ids, ...common }))
      return
    }
    if (note === undefined) return
    if (o.kind === "move") this.run(Command.MoveNote({ noteId: note.noteId, to, known: this.known, ids: this.ids, ...common }))
    if (o.kind === "split") {
      this.run(Command.SplitNote({ noteId: note.noteId, atSeq: note.sources[o.at % note.sources.length]!.seq, ids: this.ids, ...common }))
    }
    if (o.kind === "discard" || o.kind === "restore") this.run(Command.DiscardNote({ noteId: note.noteId, discard: o.kind === "discard", ...common }))
  }
}

/** How many places each message has: live notes, open questions and whole-message instructions of the live plans. */
const places = (history: History): Map<MessageId, number> => {
  const state = history.state
  const count = new Map<MessageId, number>(state.messages.map((m) => [m.id, 0]))
  const add = (id: MessageId) => count.set(id, (count.get(id) ?? 0) + 1)
  for (const note of state.notes.values()) for (const s of note.sources) add(s.messageId)
  for (const q of state.questions.values()) if (q.status === "open") for (const s of q.sources) add(s.messageId)
  for (const e of history.events) {
    if (e._tag === "InstructionRecorded" && e.kind === "message" && state.appliedPlans.includes(e.planId)) add(e.messageId)
  }
  return count
}

const input = session({ maxMessages: 7 }).filter((m) => m.length > 0).chain((messages) =>
  fc.record({
    messages: fc.constant(messages),
    plans: fc.tuple(adversarialPlan(messages), adversarialPlan(messages), adversarialPlan(messages)),
    first: fc.array(op, { maxLength: 8 }),
    second: fc.array(op, { maxLength: 8 })
  })
)

describe("promotion properties", () => {
  it("after any curation and any new plan, every message has one place and no correction is lost", () => {
    fc.assert(
      fc.property(input, ({ first, messages, plans, second }) => {
        const history = new History(messages.map((m) => m.text))
        const count = messages.length
        history.plan(plans[0], count, false)
        for (const [ops, next] of [[first, plans[1]], [second, plans[2]]] as const) {
          for (const o of ops) history.curate(o)
          const before = history.state
          const recorded = history.plan(next, count, true)
          // Every message answered: nothing is planned again.
          expect(recorded.length > 0).toBe(plannable(before).length > 0)
          expect([...places(history).entries()].filter(([, n]) => n !== 1)).toEqual([])
          expect(unkept(before, history.state)).toEqual([])
        }
      }),
      { numRuns: propertyRuns(300) }
    )
  }, 180_000)

  it("a promotion of the same plan with no curation changes nothing the user sees", () => {
    fc.assert(
      fc.property(input, ({ messages, plans }) => {
        const history = new History(messages.map((m) => m.text))
        history.plan(plans[0], messages.length, false)
        const shape = (s: SessionState) => [...s.notes.values()].map((n) => [n.personId, n.sources.map((x) => x.seq), n.discarded])
        const before = shape(history.state)
        history.plan(plans[0], messages.length, true)
        expect(shape(history.state)).toEqual(before)
      }),
      { numRuns: propertyRuns(300) }
    )
  }, 180_000)
})
