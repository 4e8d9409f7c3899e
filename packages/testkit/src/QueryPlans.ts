/**
 * What the database plans for each statement an effect runs, which tables those plans read whole
 * and which results they sort: for tests that hold every read to an index. On PostgreSQL
 * sequential scans and sorts are switched off for the explanation, so a `Seq Scan` or a `Sort`
 * left in the plan means no index could serve, whatever the size of the test's tables.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import * as Statement from "@effect/sql/Statement"
import { Effect, Ref } from "effect"

/** A statement's text and its plan, one line per step (SQLite's `detail`, PostgreSQL's text format). */
export interface Explained {
  readonly text: string
  readonly plan: ReadonlyArray<string>
}

/** Run `effect`, and return the plan of each statement it ran, in order. */
export const plansOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const explained = yield* Ref.make<ReadonlyArray<Explained>>([])
    const explain = (text: string, params: ReadonlyArray<unknown>) =>
      sql.onDialectOrElse({
        pg: () =>
          sql.withTransaction(Effect.zipRight(
            sql.unsafe("SET LOCAL enable_seqscan = off").pipe(Effect.zipRight(sql.unsafe("SET LOCAL enable_sort = off"))),
            Effect.map(sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, params), (rows) => rows.map((row) => row["QUERY PLAN"].trim()))
          )),
        orElse: () => Effect.map(sql.unsafe<{ detail: string }>(`EXPLAIN QUERY PLAN ${text}`, params), (rows) => rows.map((row) => row.detail))
      })
    const result = yield* effect.pipe(Statement.withTransformer((statement) => {
      const [text, params] = statement.compile()
      return Statement.withTransformerDisabled(explain(text, params)).pipe(
        Effect.flatMap((plan) => Ref.update(explained, (all) => [...all, { text, plan }])),
        Effect.orDie,
        Effect.as(statement)
      )
    }))
    return { result, explained: yield* Ref.get(explained) }
  })

/** The tables a statement names, by each name it is known by there (its own and its aliases). */
const tablesByName = (text: string): ReadonlyMap<string, string> => {
  const names = new Map<string, string>()
  for (const [, table, alias] of text.matchAll(/\b(?:FROM|JOIN)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    names.set(table!, table!)
    if (alias !== undefined && !/^(ON|WHERE|JOIN|LEFT|INNER|CROSS|GROUP|ORDER|LIMIT|USING|UNION|AND)$/i.test(alias)) names.set(alias, table!)
  }
  return names
}

/**
 * Where a statement's plan walks a table of `tables` from end to end: SQLite's `SCAN t` (`t`) or
 * `SCAN t USING [COVERING] INDEX i` (`t via i`: cheap when `i` is a partial index of the few rows
 * wanted), PostgreSQL's `Seq Scan on t` (`t`). Subqueries, constant rows and virtual tables are not
 * tables.
 */
export const walks = ({ plan, text }: Explained, tables: ReadonlySet<string>): ReadonlyArray<string> => {
  const names = tablesByName(text)
  return plan.flatMap((line) => {
    const found = /^(?:->\s*)?(?:SCAN|Seq Scan on|Parallel Seq Scan on) (\w+)(?: USING (?:COVERING )?INDEX (\w+))?/.exec(line)
    const table = found === null ? undefined : (names.get(found[1]!) ?? found[1]!)
    if (table === undefined || !tables.has(table)) return []
    return [found![2] === undefined ? table : `${table} via ${found![2]}`]
  })
}

/** The first table the statement reads outside any parentheses (its subqueries'). */
const outerTable = (text: string): string | undefined => {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === "(") depth++
    else if (char === ")") depth--
    else if (depth === 0) {
      const found = /^FROM\s+(\w+)/i.exec(text.slice(i, i + 80))
      if (found !== null && /\W/.test(text[i - 1] ?? " ")) return found[1]
    }
  }
  return undefined
}

/**
 * Where a statement sorts what it found instead of reading it in order from an index: SQLite's
 * `USE TEMP B-TREE FOR … ORDER BY`, PostgreSQL's `Sort` or `Incremental Sort`, each named as
 * `sort of t` for the statement's table `t` of `tables`: the one it reads outside parentheses,
 * else the first it names (a full-text table is not one of `tables`, the rows it finds are). A sort costs what
 * was found, so a paged read that sorts grows with the store however small its page.
 */
export const sorts = ({ plan, text }: Explained, tables: ReadonlySet<string>): ReadonlyArray<string> => {
  const table = [outerTable(text), ...tablesByName(text).values()].find((name) => name !== undefined && tables.has(name))
  if (table === undefined) return []
  return plan.some((line) => /^(?:->\s*)?(?:USE TEMP B-TREE FOR (?:.* )?ORDER BY|(?:Incremental )?Sort\b)/.test(line)) ? [`sort of ${table}`] : []
}
