/**
 * Liveness, readiness and the Prometheus scrape. Ready needs the database to answer `SELECT 1`
 * (else 503); planning held on an operator's error is `degraded`, still 200, because capture goes
 * on and a load balancer must keep the instance in rotation.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Api, NotReady, type Readiness } from "@verbatim/domain/Api"
import { ReadModel } from "@verbatim/projections/ReadModel"
import { Effect, Option } from "effect"
import * as Metrics from "../Metrics.js"
import { PlanningHold, reasonOf } from "../PlanningHold.js"

export const layer = HttpApiBuilder.group(Api, "health", (handlers) =>
  Effect.gen(function*() {
    const read = yield* ReadModel
    const hold = yield* PlanningHold
    return handlers
      .handle("healthz", () => Effect.succeed({ status: "ok" as const }))
      .handle("readyz", () =>
        read.ping.pipe(
          Effect.mapError(() => new NotReady({ message: "the database does not answer" })),
          Effect.zipRight(hold.current),
          Effect.map((held): Readiness =>
            Option.match(held, {
              onNone: () => ({ status: "ready" }),
              onSome: (h) => ({ status: "degraded", reason: reasonOf(h) })
            })
          )
        ))
      .handle("metrics", () =>
        Effect.all([read.queueDepths.pipe(Effect.orDie), hold.current]).pipe(
          Effect.flatMap(([d, held]) =>
            Metrics.prometheusText([
              { name: "verbatim_planning_held", help: "1 while planning is held on an operator's error (key, model, billing)", value: Option.isSome(held) ? 1 : 0 },
              { name: "verbatim_replies_queued", help: "Replies waiting in the outbox", value: d.queuedReplies },
              { name: "verbatim_sessions_open", help: "Sessions still collecting messages", value: d.openSessions },
              { name: "verbatim_sessions_unplanned", help: "Closed sessions without an applied plan", value: d.unplannedSessions }
            ])
          )
        ))
  }))
