/** Schemas of column values as the drivers return them, shared by the row schemas of the queries. */
import { Schema } from "effect"

/** A whole number column: SQLite returns a number, PostgreSQL a BIGINT or COUNT(*) as text. */
export const Num = Schema.Union(Schema.Number, Schema.NumberFromString)

/** Epoch milliseconds in a number column, as a UTC time. */
export const Millis = Schema.compose(Num, Schema.DateTimeUtcFromNumber)

/** An ISO-8601 text column, as a UTC time. */
export const IsoTime = Schema.DateTimeUtc

/** A JSON text column holding `schema`. */
export const Json = <A, I, R>(schema: Schema.Schema<A, I, R>) => Schema.parseJson(schema)

/** A `COUNT(*) AS n` row. */
export const CountRow = Schema.Struct({ n: Num })

/** A field read from the snake_case column `key`. */
export const column = <A, I, R>(schema: Schema.Schema<A, I, R>, key: string) =>
  Schema.propertySignature(schema).pipe(Schema.fromKey(key))
