/**
 * Events to and from their stored form: type and schema version in columns, the payload as JSON.
 * The projections read events in that stored form (`StoredEvent`), live and in a replay alike,
 * so a replay checks each payload against its schema without building the domain's values.
 */
import * as Events from "@verbatim/domain/Events"
import type { Event, EventType } from "@verbatim/domain/Events"
import { eventVersions } from "@verbatim/domain/EventVersions"
import { Either, ParseResult, Schema } from "effect"
import { StoreError } from "./EventStore.js"
import { checkOf } from "./internal/Check.js"
import { upcast } from "./Upcast.js"

/** An event as stored. */
export interface EncodedEvent {
  readonly type: EventType
  readonly schemaVersion: number
  readonly payload: string
}

/** An event in its stored form, as its payload's JSON reads: instants are ISO strings, classes plain objects. */
export type StoredEvent = typeof Events.Event.Encoded

/** The stored form of the events of one type. */
export type StoredOf<T extends EventType> = Extract<StoredEvent, { readonly _tag: T }>

/** Each event type's schema: the type column picks it, so a payload is checked against it alone. */
const schemas: { readonly [K in EventType]: Schema.Schema<Extract<Event, { readonly _tag: K }>, StoredOf<K>> } = {
  MessageReceived: Events.MessageReceived,
  MessageEdited: Events.MessageEdited,
  MediaFetched: Events.MediaFetched,
  MediaFailed: Events.MediaFailed,
  MediaTranscribed: Events.MediaTranscribed,
  SessionOpened: Events.SessionOpened,
  SessionClosed: Events.SessionClosed,
  PlanProduced: Events.PlanProduced,
  PlanFailed: Events.PlanFailed,
  NoteRecorded: Events.NoteRecorded,
  QuestionParked: Events.QuestionParked,
  QuestionAnswered: Events.QuestionAnswered,
  QuestionWithdrawn: Events.QuestionWithdrawn,
  InstructionRecorded: Events.InstructionRecorded,
  PlanApplied: Events.PlanApplied,
  PersonAdded: Events.PersonAdded,
  NoteMoved: Events.NoteMoved,
  NoteSplit: Events.NoteSplit,
  NoteDiscarded: Events.NoteDiscarded,
  NoteRestored: Events.NoteRestored,
  PersonRenamed: Events.PersonRenamed,
  PeopleMerged: Events.PeopleMerged,
  PeopleUnmerged: Events.PeopleUnmerged,
  ReplyQueued: Events.ReplyQueued,
  ReplySent: Events.ReplySent,
  WebSignIn: Events.WebSignIn,
  WebSignedOut: Events.WebSignedOut,
  OperatorRead: Events.OperatorRead,
  Forgotten: Events.Forgotten,
  MessagesErased: Events.MessagesErased,
  PersonForgotten: Events.PersonForgotten,
  ReminderScheduled: Events.ReminderScheduled,
  ReminderTimeAsked: Events.ReminderTimeAsked,
  ReminderHeld: Events.ReminderHeld,
  ReminderDelivered: Events.ReminderDelivered,
  ReminderDone: Events.ReminderDone,
  ReminderSnoozed: Events.ReminderSnoozed,
  ReminderRescheduled: Events.ReminderRescheduled,
  ReminderCancelled: Events.ReminderCancelled,
  RemindersTaken: Events.RemindersTaken,
  TimeZoneSet: Events.TimeZoneSet,
  AskPosed: Events.AskPosed,
  AskAnswered: Events.AskAnswered,
  AskFailed: Events.AskFailed,
  AskQuoteConfirmed: Events.AskQuoteConfirmed,
  ReplyFailed: Events.ReplyFailed
}

type Compiled<A> = { readonly [K in EventType]: A }

const compile = <A>(f: (schema: Schema.Schema<any, any>) => A): Compiled<A> =>
  Object.fromEntries(Object.entries(schemas).map(([type, schema]) => [type, f(schema)])) as Compiled<A>

/** One compiled decoder per event type. */
const decoders = compile((schema) => Schema.decodeUnknownEither(schema))

/**
 * One compiled check per event type of the stored form, with every refinement the decode applies
 * (brands, integers, finite numbers, literals) but no transformation, compiled to plain predicates
 * (`internal/Check.ts`) so a payload that passes allocates nothing. Instants are checked as
 * strings: the log holds only what `encode` wrote, an ISO 8601 instant, and the read model stores
 * that text.
 */
const storedChecks = compile((schema) => checkOf(Schema.encodedBoundSchema(schema)))

/**
 * An event's stored form at its current schema version, which the live path projects; it throws a
 * `ParseError` on an invalid event. Its JSON reads back as the same value but for `-0`, which
 * JSON writes as `0` and which reads as `0` wherever a row takes it (EventCodec.test.ts).
 */
export const toStored: (event: Event) => StoredEvent = Schema.encodeSync(Events.Event)

/** A stored form as the row that holds it. */
export const serialize = (stored: StoredEvent): EncodedEvent => ({
  type: stored._tag,
  schemaVersion: eventVersions[stored._tag],
  payload: JSON.stringify(stored)
})

/** Encode an event at its current schema version. */
export const encode = (event: Event): EncodedEvent => serialize(toStored(event))

const isEventType = (type: string): type is EventType => Object.hasOwn(eventVersions, type)

const failure = (message: string) => Either.left(new StoreError({ reason: "decode", message }))

/** Parse a stored payload and upcast it to the current schema version, unchecked. */
const lift = (type: string, schemaVersion: number, payload: string): Either.Either<{ type: EventType; payload: unknown }, StoreError> => {
  if (!isEventType(type)) return failure(`unknown event type ${type}`)
  const current = eventVersions[type]
  if (schemaVersion > current) return failure(`${type} v${schemaVersion} is newer than this build (v${current})`)
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(payload) as Record<string, unknown>
  } catch (error) {
    return failure(`${type} v${schemaVersion}: the payload is not JSON (${(error as Error).message})`)
  }
  const lifted = schemaVersion === current ? parsed : upcast(type, schemaVersion, current, parsed)
  return lifted === undefined ? failure(`no upcaster for ${type} v${schemaVersion}`) : Either.right({ type, payload: lifted })
}

const described = (type: string, schemaVersion: number) => (error: ParseResult.ParseError) =>
  new StoreError({ reason: "decode", message: `${type} v${schemaVersion}: ${ParseResult.TreeFormatter.formatErrorSync(error)}` })

/** Decode a stored payload, upcasting older schema versions first. */
export const decode = (type: string, schemaVersion: number, payload: string): Either.Either<Event, StoreError> =>
  Either.flatMap(lift(type, schemaVersion, payload), (l) => Either.mapLeft(decoders[l.type](l.payload), described(type, schemaVersion)))

const decodeStoredForm = (schema: Schema.Schema<any, any>, payload: unknown) =>
  Schema.decodeUnknownEither(Schema.encodedBoundSchema(schema))(payload)

/**
 * A stored payload in its stored form, upcast and checked against its schema but not decoded:
 * what a replay projects. A payload the check refuses is decoded once more, for the error's text
 * (its decoder built then: a refusal stops the replay, so it is built at most once a run).
 */
export const decodeStored = (type: string, schemaVersion: number, payload: string): Either.Either<StoredEvent, StoreError> =>
  Either.flatMap(lift(type, schemaVersion, payload), (l) =>
    storedChecks[l.type](l.payload)
      ? Either.right(l.payload as StoredEvent)
      : Either.left(Either.match(decodeStoredForm(schemas[l.type], l.payload), {
        onLeft: described(type, schemaVersion),
        onRight: () => new StoreError({ reason: "decode", message: `${type} v${schemaVersion}: refused by its schema` })
      })))
