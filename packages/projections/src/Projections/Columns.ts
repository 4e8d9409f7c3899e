/**
 * The column types read-model rows are declared with, and the shape of one table's definition.
 * Each projection declares the tables it owns with these (in `Tables/`, beside it), and
 * `Tables.ts` gathers them, so a row's columns and types are written down once.
 */
import { Schema } from "effect"

/** TEXT. */
export const Text = Schema.String
/** INTEGER (and booleans, as 0 or 1): a number on both backends. */
export const Int = Schema.Number
/** BIGINT: a number as written and as SQLite reads it back; PostgreSQL's driver reads it as a string. */
export const Big = Schema.Union(Schema.Number, Schema.String)
/** DOUBLE PRECISION. */
export const Real = Schema.Number
/** A column that may be NULL. */
export const Null = Schema.NullOr

/** One read-model table: its row, primary key, secondary lookups, and the statements that created it. */
export interface TableDef<Name extends string, Fields extends Schema.Struct.Fields> {
  readonly name: Name
  /** Every column with its type, as a row reads in a batch. */
  readonly row: Schema.Struct<Fields>
  /** The primary key's columns, comma-separated: the order a dump reads the table in. */
  readonly key: string
  /** Columns the projections look rows up by besides the key (`Batch.where`). */
  readonly indexed: ReadonlyArray<keyof Fields & string>
  /** Whether a duplicate key among new rows is a refused source rather than a replay (inserted without `ON CONFLICT`). */
  readonly strict: boolean
  /**
   * The statements that created the table, byte for byte as the migration that ran them (see
   * `Migrations.ts`); later migrations' columns are in `TableHistory.ts`, and in `row`.
   */
  readonly created: ReadonlyArray<string>
}

/** Declare a table, keeping its name's literal type: no secondary lookups and not strict unless it says so. */
export const table = <const Name extends string, Fields extends Schema.Struct.Fields>(
  def: Omit<TableDef<Name, Fields>, "indexed" | "strict"> & Partial<Pick<TableDef<Name, Fields>, "indexed" | "strict">>
): TableDef<Name, Fields> => ({ indexed: [], strict: false, ...def })
