import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"
import { Json, jsonEquals, notJsonAt } from "../src/Json.js"

const decode = Schema.decodeUnknownEither(Json)

describe("Json", () => {
  it("accepts what JSON.parse returns", () => {
    const value = JSON.parse(`{"a":[1,-2.5,"x",null,true,{"b":{}}],"c d":"ünï🙂"}`)
    expect(decode(value)).toEqual(Either.right(value))
  })

  it("names where a value stops being JSON", () => {
    expect(notJsonAt({ a: [1, Infinity] })).toBe("$.a[1] is Infinity")
    expect(notJsonAt(JSON.parse(`{"x":{"y z":1e400}}`))).toBe(`$.x["y z"] is Infinity`)
    expect(notJsonAt([NaN])).toBe("$[0] is NaN")
    expect(notJsonAt({ a: undefined })).toBe("$.a is undefined")
    expect(notJsonAt({ when: new Date(0) })).toBe("$.when is an instance of Date")
    expect(notJsonAt(() => 1)).toBe("$ is function")
    expect(notJsonAt(Object.create(null))).toBe(undefined)
    const refused = decode({ plan: { confidence: -Infinity } })
    expect(Either.isLeft(refused) && refused.left.message).toBe("Expected a JSON value, but $.plan.confidence is -Infinity")
  })

  it("compares by structure and leaves, not by key order", () => {
    expect(jsonEquals({ a: 1, b: [true, null] }, { b: [true, null], a: 1 })).toBe(true)
    expect(jsonEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false)
    expect(jsonEquals([1, 2], { 0: 1, 1: 2 })).toBe(false)
    expect(jsonEquals("1", 1)).toBe(false)
  })

  it("every generated value reads back equal from its JSON text", () => {
    fc.assert(fc.property(Arbitrary.make(Json), (value) => {
      const back = JSON.parse(JSON.stringify(value))
      expect(decode(back)).toEqual(Either.right(back))
      expect(jsonEquals(back, value)).toBe(true)
    }))
  })
})
