import { describe, expect, it } from "@effect/vitest"
import { Event } from "@verbatim/domain/Events"
import { toStored } from "@verbatim/projections/EventCodec"
import * as G from "@verbatim/testkit/Given"
import { checkOf } from "../src/internal/Check.js"
import { Arbitrary, FastCheck as fc, Schema } from "effect"

const stored = Schema.encodedBoundSchema(Event)
const check = checkOf(stored)
const is = Schema.is(stored)

type Path = ReadonlyArray<string | number>

/** Every path into a JSON value, the root included. */
const pathsOf = (value: unknown, at: Path = []): Array<Path> => {
  const inner = Array.isArray(value)
    ? value.flatMap((v, i) => pathsOf(v, [...at, i]))
    : typeof value === "object" && value !== null
    ? Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...at, k]))
    : []
  return [at, ...inner]
}

/** A copy of `value` with the node at `path` replaced, or removed when `replacement` is `remove`. */
const remove = Symbol("remove")
const replaced = (value: unknown, path: Path, replacement: unknown): unknown => {
  if (path.length === 0) return replacement === remove ? undefined : replacement
  const [head, ...rest] = path
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) }
  const next = replaced(copy[head!], rest, replacement)
  if (next === undefined && replacement === remove && rest.length === 0) {
    if (Array.isArray(copy)) copy.splice(head as number, 1)
    else delete copy[head!]
  } else copy[head!] = next
  return copy
}

const replacements = fc.oneof(
  fc.constant(remove),
  fc.constantFrom(null, "", "x", 0, -1, 1.5, 2 ** 53, true, [], {}, NaN, Infinity, "MessageReceived", "telegram"),
  fc.jsonValue({ maxDepth: 2 })
)

/** Schema.is, with a value it throws on counted as refused. */
const accepts = (form: unknown): boolean => {
  try {
    return is(form)
  } catch {
    return false
  }
}

describe("checkOf", () => {
  it("passes every event's stored form, as Schema.is does", () => {
    fc.assert(
      fc.property(Arbitrary.make(Event), (event) => {
        const form = toStored(event)
        expect([check(form), is(form)]).toEqual([true, true])
      }),
      { numRuns: 1000 }
    )
  })

  it("answers what Schema.is answers for a stored form with any one node replaced or removed", () => {
    const mutated = Arbitrary.make(Event).chain((event) => {
      const form = toStored(event)
      const paths = pathsOf(form)
      return fc.tuple(fc.integer({ min: 0, max: paths.length - 1 }), replacements)
        .map(([i, replacement]) => replaced(form, paths[i]!, replacement))
    })
    let refused = 0
    fc.assert(
      fc.property(mutated, (form) => {
        // Schema.is throws on a few values (a `_tag` object with `toString: null`): none is a stored form.
        const expected = accepts(form)
        if (!expected) refused++
        expect(check(form)).toBe(expected)
      }),
      { numRuns: 5000 }
    )
    // The mutations reach refusals, not only values every schema accepts.
    expect(refused).toBeGreaterThan(1000)
  })

  it("a tag that is an object with no usable toString is refused, where Schema.is throws", () => {
    const form = { _tag: { toString: null }, sessionId: "s", reason: "import", messageCount: 0, closedAt: "2026-01-01T00:00:00.000Z" }
    expect(() => is(form)).toThrow(TypeError)
    expect(check(form)).toBe(false)
  })

  it("named cases: a missing field, a wrong element, a refinement, an excess field, a tag no event has", () => {
    const closed = { _tag: "SessionClosed", sessionId: "s", reason: "idle", messageCount: 2, closedAt: "2026-01-01T00:00:00.000Z" }
    const { messageCount: _, ...missing } = closed
    const received = toStored(G.messageReceived("s", 1, "Ana loves jazz")) as { message: object }
    const applied = { _tag: "PlanApplied", planId: "p", sessionId: "s", noteIds: ["n"], questionIds: [], warnings: [] }
    const cases = {
      whole: closed,
      missing,
      wrongReason: { ...closed, reason: "bored" },
      excess: { ...closed, mood: "fine" },
      unknownTag: { ...closed, _tag: "SessionPaused" },
      applied,
      wrongElement: { ...applied, noteIds: [1] },
      received,
      zeroSeq: { ...received, message: { ...received.message, seq: 0 } },
      fractionalSeq: { ...received, message: { ...received.message, seq: 1.5 } }
    }
    const answers = Object.fromEntries(Object.entries(cases).map(([name, form]) => [name, [check(form), is(form)]]))
    expect(answers).toEqual({
      whole: [true, true],
      missing: [false, false],
      wrongReason: [false, false],
      excess: [true, true],
      unknownTag: [false, false],
      applied: [true, true],
      wrongElement: [false, false],
      received: [true, true],
      zeroSeq: [false, false],
      fractionalSeq: [false, false]
    })
  })

  it("refuses a schema with a transformation: Schema.is would check its decoded side", () => {
    expect(() => checkOf(Schema.Struct({ at: Schema.DateTimeUtc }))).toThrow(
      "checkOf: a transformation (DateTimeUtc) in a schema meant to have none"
    )
  })
})
