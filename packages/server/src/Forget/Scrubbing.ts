/**
 * A forgetting's words taken out of every byte the service keeps: each stored event of the
 * streams that held them rewritten as `redact` leaves it, the media bytes, published reports and
 * recorded model answers that held them deleted, and the files compacted. Driven by the log alone
 * (the `Forgotten` event and its sessions' `MessagesErased`), so a scrub cut short by a crash is
 * done again at the next start, and doing it twice changes nothing more.
 */
import type { Event } from "@verbatim/domain/Events"
import type { Forgotten as ForgottenSchema } from "@verbatim/domain/Forget/Events"
import { type Forgetting, redact } from "@verbatim/domain/Forget/Redact"
import type { AskId, MessageId, ReplyId, ReminderId } from "@verbatim/domain/Ids"
import { nameKey } from "@verbatim/domain/Session/People"
import { askStream, peopleStream, reminderStream, sessionStream } from "@verbatim/domain/Streams"
import { encode } from "@verbatim/projections/EventCodec"
import { EventStore, start } from "@verbatim/projections/EventStore"
import * as Scrub from "@verbatim/projections/Scrub"
import { Clock, Effect, Stream } from "effect"
import { dropCassettes } from "./Cassettes.js"

type Forgotten = typeof ForgottenSchema.Type

type Found = { messages: Set<MessageId>; texts: Array<string>; replies: Set<ReplyId>; names: Set<string>; digests: Array<string> }

/** What the session streams say was erased by this forgetting, and the words and bytes it had. */
const gather = (forgotten: Forgotten, events: ReadonlyArray<Event>, found: Found) => {
  for (const event of events) {
    if (event._tag === "MessagesErased" && event.forgetId === forgotten.forgetId) {
      for (const id of event.messageIds) found.messages.add(id)
      for (const id of event.replies) found.replies.add(id)
    }
  }
  for (const event of events) {
    if (event._tag === "MessageReceived" && found.messages.has(event.message.id)) found.texts.push(event.message.text)
    if ((event._tag === "MessageEdited" || event._tag === "MediaTranscribed") && found.messages.has(event.messageId)) found.texts.push(event.text)
    if (event._tag === "MediaFetched" && found.messages.has(event.messageId)) found.digests.push(event.sha256)
    if ((event._tag === "PersonAdded" || event._tag === "PersonRenamed") && forgotten.people.includes(event.personId) && event.name !== "") {
      found.names.add(nameKey(event.name))
    }
  }
}

/** Rewrite each event of `stream` that held forgotten words. */
const rewriteStream = (stream: string, forgetting: Forgetting) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    let rewritten = 0
    for (const recorded of yield* store.readStream(stream)) {
      const redacted = redact(forgetting, recorded.event)
      if (encode(redacted).payload === encode(recorded.event).payload) continue
      yield* Scrub.rewrite(recorded.position, redacted)
      rewritten += 1
    }
    return rewritten
  })

/** Scrub one forgetting; the number of stored events it rewrote. */
export const scrub = (forgotten: Forgotten, userSessions: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    const found: Found = { messages: new Set(), texts: [], replies: new Set(), names: new Set(), digests: [] }
    // A forgotten person's name may be anywhere in their user's sessions: every one is read.
    const sessions = [...new Set([...forgotten.sessions, ...(forgotten.people.length > 0 ? userSessions : [])])]
    const streams = [...sessions.map((s) => sessionStream(s as Parameters<typeof sessionStream>[0])), peopleStream(forgotten.user)]
    for (const stream of streams) gather(forgotten, (yield* store.readStream(stream)).map((e) => e.event), found)
    const reminders = yield* Scrub.remindersOf([...found.messages])
    const everything = forgotten.target._tag === "User"
    const forgetting: Forgetting = { ...found, people: new Set(forgotten.people), everything }
    // An ask may quote any of the user's messages: their asks are read whatever was forgotten.
    const asks = (yield* Scrub.asksOfUser(forgotten.user)).map((id) => askStream(id as AskId))
    let rewritten = 0
    for (const stream of [...streams, ...reminders.map((id) => reminderStream(id as ReminderId)), ...asks]) rewritten += yield* rewriteStream(stream, forgetting)
    yield* Scrub.dropBlobs(found.digests)
    yield* Scrub.dropReports(found.texts)
    yield* dropCassettes(forgetting)
    yield* Scrub.compact
    yield* Scrub.markScrubbed(forgotten.forgetId, yield* Clock.currentTimeMillis)
    return rewritten
  })

/** Every forgetting the log holds that was not scrubbed to the end (a crash cut it short): scrubbed now. */
export const scrubPending = Effect.gen(function*() {
  const store = yield* EventStore
  const forgettings = yield* Stream.runCollect(store.readAll(start, { types: ["Forgotten"] }))
  for (const { event } of forgettings) {
    if (event._tag !== "Forgotten" || (yield* Scrub.isScrubbed(event.forgetId))) continue
    yield* scrub(event, yield* Scrub.sessionsOfUser(event.user))
  }
})
