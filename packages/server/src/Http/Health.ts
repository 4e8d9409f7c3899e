/** Liveness, readiness (the database answers `SELECT 1`) and the Prometheus scrape. */
import { HttpApiBuilder } from "@effect/platform"
import { Api, NotReady } from "@verbatim/domain/Api"
import { ReadModel } from "@verbatim/projections/ReadModel"
import { Effect } from "effect"
import * as Metrics from "../Metrics.js"

export const layer = HttpApiBuilder.group(Api, "health", (handlers) =>
  Effect.gen(function*() {
    const read = yield* ReadModel
    return handlers
      .handle("healthz", () => Effect.succeed({ status: "ok" as const }))
      .handle("readyz", () =>
        read.ping.pipe(
          Effect.as({ status: "ready" as const }),
          Effect.mapError(() => new NotReady({ message: "the database does not answer" }))
        ))
      .handle("metrics", () =>
        read.queueDepths.pipe(
          Effect.orDie,
          Effect.flatMap((d) =>
            Metrics.prometheusText([
              { name: "verbatim_replies_queued", help: "Replies waiting in the outbox", value: d.queuedReplies },
              { name: "verbatim_sessions_open", help: "Sessions still collecting messages", value: d.openSessions },
              { name: "verbatim_sessions_unplanned", help: "Closed sessions without an applied plan", value: d.unplannedSessions }
            ])
          )
        ))
  }))
