/** A JSON value, as `JSON.parse` returns it: stored as JSON, it reads back equal. */
import { Schema } from "effect"

export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * What in `value` JSON cannot keep as it is, and where (`Infinity`, which `JSON.stringify` writes
 * as `null`; `undefined`; a function; a class instance), or `undefined` when it is all JSON.
 */
export const notJsonAt = (value: unknown, path = "$"): string | undefined => {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined
    case "number":
      return Number.isFinite(value) ? undefined : `${path} is ${value}`
    case "object": {
      if (value === null) return undefined
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const at = notJsonAt(value[i], `${path}[${i}]`)
          if (at !== undefined) return at
        }
        return undefined
      }
      if (!isPlainObject(value)) return `${path} is an instance of ${value.constructor?.name ?? "a class"}`
      for (const [key, field] of Object.entries(value)) {
        const at = notJsonAt(field, `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`)
        if (at !== undefined) return at
      }
      return undefined
    }
    default:
      return `${path} is ${typeof value}`
  }
}

/** Equal JSON values: the same structure and the same leaves, whatever the order of object keys. */
export const jsonEquals = (a: Json, b: Json): boolean => {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((item, i) => jsonEquals(item, b[i]!))
  }
  const record = a as { readonly [key: string]: Json }
  const other = b as { readonly [key: string]: Json }
  const keys = Object.keys(record)
  return keys.length === Object.keys(other).length &&
    keys.every((key) => Object.hasOwn(other, key) && jsonEquals(record[key]!, other[key]!))
}

/** Checked in one walk, and a refusal names where the value stops being JSON. */
export const Json: Schema.Schema<Json> = Schema.declare((u: unknown): u is Json => notJsonAt(u) === undefined, {
  identifier: "Json",
  description: "a JSON value: null, a boolean, a finite number, a string, or arrays and plain objects of them",
  message: (issue) => `Expected a JSON value, but ${notJsonAt(issue.actual) ?? "it is not one"}`,
  arbitrary: () => (fc) =>
    fc.letrec<{ readonly json: Json }>((tie) => ({
      json: fc.oneof(
        { depthSize: "small" },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string(),
        fc.array(tie("json")),
        fc.dictionary(fc.string(), tie("json"))
      )
    })).json,
  equivalence: () => jsonEquals,
  jsonSchema: { anyOf: ["null", "boolean", "number", "string", "array", "object"].map((type) => ({ type })) }
})
