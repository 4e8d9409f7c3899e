/**
 * A check's own PostgreSQL database: created fresh on the server the harness was given, read
 * whole with `pg_dump`, checked with `verbatim rebuild --verify` (the bundled command), dropped.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { SqlClient } from "@effect/sql/SqlClient"
import { bundlePath, cliNodeFlags } from "@verbatim/server/scripts/bundle"
import { Effect, Redacted } from "effect"
import { execFileSync, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** One statement on the PostgreSQL server at `url` (creating and dropping a check's database). */
export const admin = (url: string, statement: string) =>
  Effect.runPromise(
    Effect.provide(Effect.flatMap(SqlClient, (sql) => sql.unsafe(statement)), PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
  )

export interface Database {
  /** The database's own URL, for `VERBATIM_DATABASE_URL`. */
  readonly url: string
  /** Drop it, whoever is still connected; never fails. */
  readonly drop: () => Promise<void>
}

/** A new empty database on the server at `serverUrl`, named `verbatim_rel_<prefix><time>`. */
export const freshDatabase = async (serverUrl: string, prefix = ""): Promise<Database> => {
  const name = `verbatim_rel_${prefix}${Date.now().toString(36)}`
  await admin(serverUrl, `CREATE DATABASE ${name}`)
  return {
    url: Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString(),
    drop: () => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined, () => undefined)
  }
}

/** Every row of the database as `pg_dump --data-only` writes it. */
export const pgDump = (url: string): string =>
  execFileSync("pg_dump", ["--data-only", url], { maxBuffer: 256 * 1024 * 1024 }).toString("utf8")

/** `verbatim rebuild --verify` on the database; throws with its output unless every table is reproduced. */
export const verifyRebuild = (url: string): string => {
  const dir = mkdtempSync(join(tmpdir(), "verbatim-rebuild-"))
  try {
    const child = spawnSync(process.execPath, [...cliNodeFlags, bundlePath, "rebuild", "--verify"], {
      env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "", VERBATIM_DATABASE_URL: url, VERBATIM_DATA_DIR: dir },
      encoding: "utf8",
      maxBuffer: 1 << 24,
      timeout: 60_000
    })
    const verified = /verified: .*/.exec(child.stdout)
    if (child.status !== 0 || verified === null) {
      throw new Error(`verbatim rebuild --verify failed (${child.status ?? child.signal}): ${child.stdout}${child.stderr.slice(-2_000)}`)
    }
    return verified[0]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
