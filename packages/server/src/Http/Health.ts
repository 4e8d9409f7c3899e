/**
 * Liveness, readiness and the Prometheus scrape. Ready needs the database to answer `SELECT 1`
 * (else 503); planning held on an operator's error is `degraded`, still 200, because capture goes
 * on and a load balancer must keep the instance in rotation. `/metrics` is public unless
 * `VERBATIM_METRICS_PUBLIC=false`, which puts it behind the read API's bearer token.
 */
import { HttpApiBuilder, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Api, NotReady, type Readiness } from "@verbatim/domain/Api"
import { Jobs } from "@verbatim/projections/Jobs"
import { Clock, Effect, Option, Redacted } from "effect"
import { ApiToken } from "../ApiToken.js"
import { gauge, prometheusText } from "../Exposition.js"
import { type Outage, Outbox } from "../Providers/Outbox.js"
import { PlanningHold, reasonOf } from "../Planning/PlanningHold.js"
import { RuntimeMetrics } from "../RuntimeMetrics.js"
import { chatProviders } from "@verbatim/domain/Inbound/Providers"
import { ServerConfig } from "../ServerConfig.js"
import { constantTimeEqual } from "../Providers/WebhookAuth.js"

/** An outage as `/readyz` says it. */
const outageReason = (outage: Outage) =>
  `replies to ${outage.provider} failing since ${new Date(outage.since).toISOString()} (${outage.reason}); they stay queued`

/** The body the read API's bearer check answers a refusal with. */
const refusal = { message: "missing or wrong bearer token", _tag: "Unauthorized" }

export const layer = HttpApiBuilder.group(Api, "health", (handlers) =>
  Effect.gen(function*() {
    const read = yield* Jobs
    const hold = yield* PlanningHold
    const outbox = yield* Outbox
    const runtime = yield* RuntimeMetrics
    const settings = yield* ServerConfig
    const token = Redacted.value((yield* ApiToken).token)

    const authorised = (request: HttpServerRequest.HttpServerRequest) => {
      if (settings.metricsPublic) return true
      const presented = /^Bearer (.+)$/.exec(request.headers["authorization"] ?? "")?.[1]
      return presented !== undefined && constantTimeEqual(presented, token)
    }

    const scrape = Effect.all([read.queueDepths.pipe(Effect.orDie), hold.current, runtime.families, outbox.outages, Clock.currentTimeMillis]).pipe(
      Effect.flatMap(([d, held, process, failing, now]) =>
        prometheusText([
          gauge("verbatim_planning_held", "1 while planning is held on an operator's error (key, model, billing)", Option.isSome(held) ? 1 : 0),
          gauge("verbatim_replies_queued", "Replies waiting in the outbox", d.queuedReplies),
          {
            name: "verbatim_reply_outage_seconds",
            help: "How long a provider's sends have been failing, none succeeding since (0: sending)",
            type: "gauge",
            samples: chatProviders.map((provider) => ({
              labels: [["provider", provider]],
              value: Math.max(0, Math.round((now - (failing.find((o) => o.provider === provider)?.since ?? now)) / 1000))
            }))
          },
          gauge("verbatim_sessions_open", "Sessions still collecting messages", d.openSessions),
          gauge("verbatim_sessions_unplanned", "Closed sessions without an applied plan", d.unplannedSessions),
          ...process
        ])
      )
    )

    return handlers
      .handle("healthz", () => Effect.succeed({ status: "ok" as const }))
      .handle("readyz", () =>
        read.ping.pipe(
          Effect.mapError(() => new NotReady({ message: "the database does not answer" })),
          Effect.zipRight(Effect.all([hold.current, outbox.outages])),
          Effect.map(([held, failing]): Readiness => {
            const reasons = [...Option.toArray(Option.map(held, reasonOf)), ...failing.map(outageReason)]
            return reasons.length === 0 ? { status: "ready" } : { status: "degraded", reason: reasons.join("; ") }
          })
        ))
      .handleRaw("metrics", ({ request }) =>
        authorised(request)
          ? Effect.map(scrape, (body) => HttpServerResponse.text(body, { contentType: "text/plain; version=0.0.4" }))
          : Effect.zipRight(
            Effect.logInfo("refused").pipe(Effect.annotateLogs({ refused: "metrics scrape", reason: "missing or wrong bearer token" })),
            HttpServerResponse.json(refusal, { status: 401 }).pipe(Effect.orDie)
          ))
  }))
