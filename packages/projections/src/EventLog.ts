/**
 * The event log as clients page through it (`/api/events`, the `events` command): a service of
 * its own because it reads the log, not the projections, and only those readers want it.
 */
import type { EventsPage } from "@verbatim/domain/ApiResponses"
import { Context, Effect, Layer } from "effect"
import { EventStore, type StoreError } from "./EventStore.js"
import { events } from "./Queries/EventPages.js"

export class EventLog extends Context.Tag("@verbatim/projections/EventLog")<EventLog, {
  /**
   * Events after a cursor (the start when none) in the order a catch-up reader follows: at most
   * `limit`, and no more than fit `maxBytes` of payload (unbounded when not given) except that a
   * page always holds at least one event.
   */
  readonly events: (after: string | undefined, limit: number, maxBytes?: number) => Effect.Effect<EventsPage, StoreError>
}>() {}

/** Build the log's pages over the event store in context. */
export const make = Effect.map(EventStore, (store) =>
  EventLog.of({
    events: (after, limit, maxBytes) => events(after, limit, maxBytes).pipe(Effect.provideService(EventStore, store))
  }))

/** The log's pages on the store. */
export const layer: Layer.Layer<EventLog, never, EventStore> = Layer.effect(EventLog, make)
