/** A JSON value, as `JSON.parse` returns it: stored as JSON, it reads back equal. */
import { Schema } from "effect"

export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const element = Schema.suspend((): Schema.Schema<Json> => Json)

/** Numbers are finite: `JSON.stringify` writes `Infinity` and `NaN` as `null`. */
export const Json: Schema.Schema<Json> = Schema.Union(
  Schema.Null,
  Schema.Boolean,
  Schema.Finite,
  Schema.String,
  Schema.Array(element),
  Schema.Record({ key: Schema.String, value: element })
).annotations({ identifier: "Json" })
