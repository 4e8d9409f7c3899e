import { describe, expect, it } from "@effect/vitest"
import { Event } from "@verbatim/domain/Events"
import { SessionId } from "@verbatim/domain/Ids"
import { decode, decodeStored, encode, toStored } from "@verbatim/projections/EventCodec"
import type { StoreError } from "@verbatim/projections/EventStore"
import { Arbitrary, DateTime, Either, FastCheck as fc, Option, Schema, SchemaAST as AST } from "effect"

const same = Schema.equivalence(Event)

const numeric = (ast: AST.AST): boolean =>
  ast._tag === "NumberKeyword" || (ast._tag === "Refinement" && numeric(ast.from))

/** Where the stored form of an event holds a number that may be `Infinity` or `NaN`. */
const unboundedNumbers = (root: AST.AST): ReadonlyArray<string> => {
  const found: Array<string> = []
  const seen = new Set<AST.AST>()
  const walk = (ast: AST.AST, path: string): void => {
    if (seen.has(ast)) return
    seen.add(ast)
    if (numeric(ast)) {
      const accepts = Schema.is(Schema.make(ast))
      if (accepts(Infinity) || accepts(NaN)) found.push(path)
      return
    }
    switch (ast._tag) {
      case "Refinement":
        return walk(ast.from, path)
      case "Transformation":
        return walk(ast.from, path)
      case "Suspend":
        return walk(ast.f(), path)
      case "Union":
        return ast.types.forEach((member, i) => walk(member, `${path}|${i}`))
      case "TypeLiteral":
        ast.propertySignatures.forEach((p) => walk(p.type, `${path}.${String(p.name)}`))
        return ast.indexSignatures.forEach((s) => walk(s.type, `${path}[key]`))
      case "TupleType":
        ast.elements.forEach((e, i) => walk(e.type, `${path}[${i}]`))
        return ast.rest.forEach((r) => walk(r.type, `${path}[]`))
      default:
        return
    }
  }
  walk(root, "Event")
  return found
}

/** The value with every `-0` made `0`: the one difference between a value and its JSON read back. */
const withoutNegativeZero = (value: unknown): unknown =>
  Object.is(value, -0)
    ? 0
    : Array.isArray(value)
    ? value.map(withoutNegativeZero)
    : typeof value === "object" && value !== null
    ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutNegativeZero(v)]))
    : value

describe("EventCodec", () => {
  it("every number an event stores is finite: JSON writes Infinity and NaN as null, which would not decode", () => {
    expect(unboundedNumbers(Event.ast)).toEqual([])
  })

  it("an event holding Infinity or NaN is refused when encoded, before it reaches the log", () => {
    const closed = (messageCount: number): Event => ({
      _tag: "SessionClosed",
      sessionId: SessionId.make("session-1"),
      reason: "idle",
      messageCount,
      closedAt: DateTime.unsafeMake(0)
    })
    expect(encode(closed(3)).payload).toBe(
      `{"_tag":"SessionClosed","sessionId":"session-1","reason":"idle","messageCount":3,"closedAt":"1970-01-01T00:00:00.000Z"}`
    )
    expect(() => encode(closed(Infinity))).toThrow(/Expected a finite number, actual Infinity/)
    expect(() => encode(closed(NaN))).toThrow(/Expected a finite number, actual NaN/)
  })

  it("every event decodes from its stored form to an equal event", () => {
    fc.assert(
      fc.property(Arbitrary.make(Event), (event) => {
        const stored = encode(event)
        const back = decode(stored.type, stored.schemaVersion, stored.payload)
        if (Either.isLeft(back)) throw new Error(back.left.message)
        expect(same(back.right, event)).toBe(true)
      }),
      { numRuns: 2000 }
    )
  })

  it("a replay's check passes every event's stored form and reads it as the live path projects it, -0 read as 0", () => {
    fc.assert(
      fc.property(Arbitrary.make(Event), (event) => {
        const row = encode(event)
        const replayed = decodeStored(row.type, row.schemaVersion, row.payload)
        if (Either.isLeft(replayed)) throw new Error(replayed.left.message)
        expect(replayed.right).toStrictEqual(withoutNegativeZero(toStored(event)))
      }),
      { numRuns: 2000 }
    )
  })

  it("a payload whose tag is an object with no usable toString is a typed decode error, for a read and a replay alike", () => {
    // Schema.is over the union of every event throws on such a tag; the codec decodes by type and must not.
    const payload = JSON.stringify({ _tag: { toString: null }, sessionId: "s", reason: "import", messageCount: 0, closedAt: "2026-01-01T00:00:00.000Z" })
    const refusal = (read: Either.Either<unknown, StoreError>) => Either.getLeft(read).pipe(Option.map((e) => e.message))
    const fields = (closedAt: string) =>
      `{ readonly _tag: "SessionClosed"; readonly sessionId: string & Brand<"SessionId">; readonly reason: "idle" | "command" | "import"; readonly messageCount: Finite; readonly closedAt: ${closedAt} }`
    const why = `\n└─ ["_tag"]\n   └─ Expected "SessionClosed", actual {"toString":null}`
    expect([refusal(decode("SessionClosed", 1, payload)), refusal(decodeStored("SessionClosed", 1, payload))]).toEqual([
      Option.some(`SessionClosed v1: ${fields("DateTimeUtc")}${why}`),
      Option.some(`SessionClosed v1: ${fields("string")}${why}`)
    ])
  })

  it("a payload that is not JSON is a typed decode error, for a read and a replay alike", () => {
    const jsonError = (() => {
      try {
        JSON.parse("{\"_tag\":")
        return ""
      } catch (error) {
        return (error as Error).message
      }
    })()
    const message = `SessionClosed v1: the payload is not JSON (${jsonError})`
    const refusal = (read: Either.Either<unknown, StoreError>) => Either.getLeft(read).pipe(Option.map((e) => e.message))
    expect([refusal(decode("SessionClosed", 1, "{\"_tag\":")), refusal(decodeStored("SessionClosed", 1, "{\"_tag\":"))])
      .toEqual([Option.some(message), Option.some(message)])
  })
})
