/** Events to and from their stored form: type and schema version in columns, the payload as JSON. */
import { Event, eventVersions } from "@verbatim/domain/Events"
import type { EventType } from "@verbatim/domain/Events"
import { Either, ParseResult, Schema } from "effect"
import { StoreError } from "./EventStore.js"
import { upcast } from "./Upcast.js"

/** An event as stored. */
export interface EncodedEvent {
  readonly type: EventType
  readonly schemaVersion: number
  readonly payload: string
}

const encodeEvent = Schema.encodeSync(Event)
const decodeEvent = Schema.decodeUnknownEither(Event)

/** Encode an event at its current schema version. */
export const encode = (event: Event): EncodedEvent => ({
  type: event._tag,
  schemaVersion: eventVersions[event._tag],
  payload: JSON.stringify(encodeEvent(event))
})

const isEventType = (type: string): type is EventType => Object.hasOwn(eventVersions, type)

/** Decode a stored payload, upcasting older schema versions first. */
export const decode = (type: string, schemaVersion: number, payload: string): Either.Either<Event, StoreError> => {
  if (!isEventType(type)) {
    return Either.left(new StoreError({ reason: "decode", message: `unknown event type ${type}` }))
  }
  const current = eventVersions[type]
  if (schemaVersion > current) {
    return Either.left(
      new StoreError({ reason: "decode", message: `${type} v${schemaVersion} is newer than this build (v${current})` })
    )
  }
  const parsed = JSON.parse(payload) as Record<string, unknown>
  const lifted = schemaVersion === current ? parsed : upcast(type, schemaVersion, current, parsed)
  if (lifted === undefined) {
    return Either.left(new StoreError({ reason: "decode", message: `no upcaster for ${type} v${schemaVersion}` }))
  }
  return Either.mapLeft(
    decodeEvent(lifted),
    (error) =>
      new StoreError({ reason: "decode", message: `${type} v${schemaVersion}: ${ParseResult.TreeFormatter.formatErrorSync(error)}` })
  )
}
