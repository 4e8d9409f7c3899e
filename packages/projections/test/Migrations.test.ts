/**
 * The event log's schema as each backend's migrations create it, pinned whole: databases created
 * by earlier releases have exactly this, and SQLite keeps the statements' text as the schema.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import * as Database from "@verbatim/testkit/Database"
import { Effect } from "effect"

const sqliteSchema = Effect.flatMap(SqlClient, (sql) =>
  sql<{ type: string; name: string; sql: string | null }>`SELECT type, name, sql FROM sqlite_master
    WHERE tbl_name IN ('events', 'idempotency_keys') ORDER BY name`)

interface PgColumn {
  readonly table_name: string
  readonly column_name: string
  readonly data_type: string
  readonly is_nullable: string
  readonly column_default: string | null
  readonly is_identity: string
  readonly identity_generation: string | null
}

const pgSchema = Effect.flatMap(SqlClient, (sql) =>
  Effect.all({
    columns: Effect.map(
      sql<PgColumn>`SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity, identity_generation
        FROM information_schema.columns WHERE table_name IN ('events', 'idempotency_keys') ORDER BY table_name, ordinal_position`,
      (rows) =>
        rows.map((c) => [
          `${c.table_name}.${c.column_name}`,
          c.data_type,
          c.is_nullable === "NO" ? "not null" : "null",
          c.column_default,
          c.is_identity === "YES" ? c.identity_generation : null
        ])
    ),
    indexes: Effect.map(
      sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE tablename IN ('events', 'idempotency_keys') ORDER BY indexname`,
      (rows) => rows.map((r) => r.indexdef)
    )
  }))

describe("event log schema", () => {
  it.effect("on SQLite", () =>
    Effect.gen(function*() {
      expect(yield* sqliteSchema).toEqual([
        {
          type: "table",
          name: "events",
          sql: "CREATE TABLE events (\n    position INTEGER PRIMARY KEY AUTOINCREMENT,\n    tx_id INTEGER NOT NULL DEFAULT 0,\n" +
            "    stream TEXT NOT NULL,\n    version INTEGER NOT NULL,\n    type TEXT NOT NULL,\n    schema_version INTEGER NOT NULL,\n" +
            "    payload TEXT NOT NULL,\n    metadata TEXT NOT NULL,\n    recorded_at INTEGER NOT NULL,\n    UNIQUE (stream, version)\n  )"
        },
        {
          type: "table",
          name: "idempotency_keys",
          sql: "CREATE TABLE idempotency_keys (\n    provider TEXT NOT NULL,\n    provider_message_id TEXT NOT NULL,\n" +
            "    position INTEGER NOT NULL,\n    PRIMARY KEY (provider, provider_message_id)\n  )"
        },
        { type: "index", name: "sqlite_autoindex_events_1", sql: null },
        { type: "index", name: "sqlite_autoindex_idempotency_keys_1", sql: null }
      ])
    }).pipe(Effect.provide(Database.sqlite())))

  it.effect("on PostgreSQL", () =>
    Effect.gen(function*() {
      expect(yield* pgSchema).toEqual({
        columns: [
          ["events.position", "bigint", "not null", null, "ALWAYS"],
          ["events.tx_id", "bigint", "not null", "((pg_current_xact_id())::text)::bigint", null],
          ["events.stream", "text", "not null", null, null],
          ["events.version", "integer", "not null", null, null],
          ["events.type", "text", "not null", null, null],
          ["events.schema_version", "integer", "not null", null, null],
          ["events.payload", "text", "not null", null, null],
          ["events.metadata", "text", "not null", null, null],
          ["events.recorded_at", "bigint", "not null", null, null],
          ["idempotency_keys.provider", "text", "not null", null, null],
          ["idempotency_keys.provider_message_id", "text", "not null", null, null],
          ["idempotency_keys.position", "bigint", "not null", null, null]
        ],
        indexes: [
          "CREATE UNIQUE INDEX events_pkey ON public.events USING btree (\"position\")",
          "CREATE INDEX events_reader ON public.events USING btree (tx_id, \"position\")",
          "CREATE UNIQUE INDEX events_stream_version_key ON public.events USING btree (stream, version)",
          "CREATE UNIQUE INDEX idempotency_keys_pkey ON public.idempotency_keys USING btree (provider, provider_message_id)"
        ]
      })
    }).pipe(Effect.provide(Database.pg)))
})
