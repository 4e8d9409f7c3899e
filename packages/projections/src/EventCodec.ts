/** Events to and from their stored form: type and schema version in columns, the payload as JSON. */
import * as Events from "@verbatim/domain/Events"
import type { Event, EventType } from "@verbatim/domain/Events"
import { eventVersions } from "@verbatim/domain/EventVersions"
import { Either, ParseResult, Schema } from "effect"
import { StoreError } from "./EventStore.js"
import { upcast } from "./Upcast.js"

/** An event as stored. */
export interface EncodedEvent {
  readonly type: EventType
  readonly schemaVersion: number
  readonly payload: string
}

const encodeEvent = Schema.encodeSync(Events.Event)

/**
 * One compiled decoder per event type: the type column picks the member schema, so a payload is
 * checked against that schema alone (its `_tag` included) rather than matched against the union.
 */
const decoders: { readonly [K in EventType]: (payload: unknown) => Either.Either<Event, ParseResult.ParseError> } = {
  MessageReceived: Schema.decodeUnknownEither(Events.MessageReceived),
  MessageEdited: Schema.decodeUnknownEither(Events.MessageEdited),
  MediaFetched: Schema.decodeUnknownEither(Events.MediaFetched),
  MediaFailed: Schema.decodeUnknownEither(Events.MediaFailed),
  MediaTranscribed: Schema.decodeUnknownEither(Events.MediaTranscribed),
  SessionOpened: Schema.decodeUnknownEither(Events.SessionOpened),
  SessionClosed: Schema.decodeUnknownEither(Events.SessionClosed),
  PlanProduced: Schema.decodeUnknownEither(Events.PlanProduced),
  PlanFailed: Schema.decodeUnknownEither(Events.PlanFailed),
  NoteRecorded: Schema.decodeUnknownEither(Events.NoteRecorded),
  QuestionParked: Schema.decodeUnknownEither(Events.QuestionParked),
  QuestionAnswered: Schema.decodeUnknownEither(Events.QuestionAnswered),
  QuestionWithdrawn: Schema.decodeUnknownEither(Events.QuestionWithdrawn),
  InstructionRecorded: Schema.decodeUnknownEither(Events.InstructionRecorded),
  PlanApplied: Schema.decodeUnknownEither(Events.PlanApplied),
  PersonAdded: Schema.decodeUnknownEither(Events.PersonAdded),
  NoteMoved: Schema.decodeUnknownEither(Events.NoteMoved),
  NoteSplit: Schema.decodeUnknownEither(Events.NoteSplit),
  NoteDiscarded: Schema.decodeUnknownEither(Events.NoteDiscarded),
  NoteRestored: Schema.decodeUnknownEither(Events.NoteRestored),
  PersonRenamed: Schema.decodeUnknownEither(Events.PersonRenamed),
  PeopleMerged: Schema.decodeUnknownEither(Events.PeopleMerged),
  ReplyQueued: Schema.decodeUnknownEither(Events.ReplyQueued),
  ReplySent: Schema.decodeUnknownEither(Events.ReplySent),
  WebSignIn: Schema.decodeUnknownEither(Events.WebSignIn),
  ReplyFailed: Schema.decodeUnknownEither(Events.ReplyFailed)
}

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
    decoders[type](lifted),
    (error) =>
      new StoreError({ reason: "decode", message: `${type} v${schemaVersion}: ${ParseResult.TreeFormatter.formatErrorSync(error)}` })
  )
}
