/** Liveness, readiness (the database answers `SELECT 1`) and the Prometheus scrape. */
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql/SqlClient"
import { Api, NotReady } from "@verbatim/domain/Api"
import { Effect } from "effect"
import * as Metrics from "../Metrics.js"

const count = (rows: ReadonlyArray<{ readonly n: number | string }>) => Number(rows[0]?.n ?? 0)

export const layer = HttpApiBuilder.group(Api, "health", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    /** Queue depths, read at scrape time from the read model. */
    const depths = Effect.all({
      queued: Effect.map(sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM replies WHERE status = 'queued'`, count),
      open: Effect.map(sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM sessions WHERE closed_at IS NULL`, count),
      unplanned: Effect.map(
        sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM sessions s WHERE s.closed_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM plans p WHERE p.session_id = s.session_id AND p.applied = 1)`,
        count
      )
    })
    return handlers
      .handle("healthz", () => Effect.succeed({ status: "ok" as const }))
      .handle("readyz", () =>
        sql`SELECT 1`.pipe(
          Effect.as({ status: "ready" as const }),
          Effect.mapError(() => new NotReady({ message: "the database does not answer" }))
        ))
      .handle("metrics", () =>
        depths.pipe(
          Effect.orDie,
          Effect.flatMap((d) =>
            Metrics.prometheusText([
              { name: "verbatim_replies_queued", help: "Replies waiting in the outbox", value: d.queued },
              { name: "verbatim_sessions_open", help: "Sessions still collecting messages", value: d.open },
              { name: "verbatim_sessions_unplanned", help: "Closed sessions without an applied plan", value: d.unplanned }
            ])
          )
        ))
  }))
