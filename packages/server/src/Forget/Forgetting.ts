/**
 * Forgetting, as a command: a note, a person, a message or everything of a user. What the target
 * holds is found in the read model; the forgetting is recorded (`Forgotten`, through the forget
 * decider), each session erases its messages (`Erase`, through the session decider: a plan, an
 * edit or a media reading that lands later brings none of them back), and the words are scrubbed
 * from every stored byte (`Scrubbing.ts`). Only the user whose data it is, or the operator
 * (`asker` null), forgets it.
 */
import { Command } from "@verbatim/domain/Session/Commands"
import type { Event } from "@verbatim/domain/Events"
import type { ForgetTarget } from "@verbatim/domain/Forget/Events"
import { forgetDecider } from "@verbatim/domain/Forget/Decide"
import { type MessageId, ReminderId, type ReplyId, type SessionId, type UserId } from "@verbatim/domain/Ids"
import { ReminderCommand } from "@verbatim/domain/Reminders/Decide"
import { forgetStream, sessionStream } from "@verbatim/domain/Streams"
import { EventStore } from "@verbatim/projections/EventStore"
import * as Scrub from "@verbatim/projections/Scrub"
import { Data, DateTime, Effect } from "effect"
import { IdGenerator } from "../IdGenerator.js"
import * as Runner from "../Runner.js"
import { act } from "../Reminders/Actions.js"
import { execute } from "../Sessions.js"
import { scrub } from "./Scrubbing.js"

/** Nothing of the asker's to forget there: no such note, person, message or user, or it is forgotten already. */
export class NothingToForget extends Data.TaggedError("NothingToForget")<{ readonly message: string }> {}

/** What a forgetting did. */
export interface Forgot {
  readonly forgetId: string
  readonly user: UserId
  readonly messages: number
  readonly sessions: number
  readonly people: number
  /** Stored events rewritten without the words. */
  readonly rewritten: number
}

const what = (target: ForgetTarget): string => {
  switch (target._tag) {
    case "Note":
      return `note ${target.noteId}`
    case "Person":
      return `person ${target.personId}`
    case "Message":
      return `message ${target.messageId}`
    case "User":
      return "user"
  }
}

/**
 * The replies of a session that quoted erased words (questions about them, any reply holding one
 * of their texts) or named a forgotten person (a plan's summary names whom it filed under).
 */
const quotingReplies = (events: ReadonlyArray<Event>, erased: ReadonlySet<MessageId>, names: ReadonlyArray<string>): ReadonlyArray<ReplyId> => {
  const questions = new Set(events.flatMap((e) => e._tag === "QuestionParked" && e.sources.some((s) => erased.has(s.messageId)) ? [e.questionId] : []))
  const texts = events.flatMap((e) => {
    if (e._tag === "MessageReceived" && erased.has(e.message.id)) return [e.message.text]
    if ((e._tag === "MessageEdited" || e._tag === "MediaTranscribed" || e._tag === "InstructionRecorded") && erased.has(e.messageId)) return [e.text]
    return []
  }).map((t) => t.trim()).filter((t) => t.length > 0)
  // A question quotes its messages cut to an excerpt: their first words are enough to know it.
  const heads = texts.map((t) => t.slice(0, 24))
  const named = names.map((n) => n.trim().toLowerCase())
  return events.flatMap((e) =>
    e._tag === "ReplyQueued" && (
        (e.questionId !== null && questions.has(e.questionId)) || heads.some((h) => e.text.includes(h)) ||
        named.some((n) => e.text.toLowerCase().includes(n))
      )
      ? [e.replyId]
      : []
  )
}

export const forget = (target: ForgetTarget, asker: UserId | null, user: UserId | null = asker) =>
  Effect.gen(function*() {
    const scope = yield* Scrub.scopeOf(target, user)
    if (scope.user === null || (asker !== null && asker !== scope.user)) {
      return yield* new NothingToForget({ message: `no such ${what(target)}${asker === null ? "" : " of yours"}` })
    }
    if (scope.messages.length === 0 && scope.people.length === 0) {
      return yield* new NothingToForget({ message: `nothing of ${what(target)} is left to forget` })
    }
    const owner = scope.user
    const forgetId = yield* Effect.flatMap(IdGenerator, (g) => g.next("forget"))
    const now = yield* DateTime.now
    const bySession = new Map<SessionId, Array<MessageId>>()
    for (const m of scope.messages) bySession.set(m.sessionId, [...(bySession.get(m.sessionId) ?? []), m.messageId])
    const sessions = [...bySession.keys()]
    // Read before the forgetting is recorded: the people go with it.
    const names = yield* Scrub.namesOf(scope.people)
    const recorded = yield* Runner.run(forgetDecider, forgetStream(owner), () =>
      Effect.succeed({ forgetId, user: owner, target, by: asker === null ? "operator" as const : "user" as const, messages: scope.messages.length, sessions, people: scope.people, now }))
    const store = yield* EventStore
    for (const [sessionId, messageIds] of bySession) {
      const events = (yield* store.readStream(sessionStream(sessionId))).map((e) => e.event)
      const replies = quotingReplies(events, new Set(messageIds), names)
      yield* execute(sessionId, () => Effect.succeed(Command.Erase({ messageIds, forgetId, replies, now }))).pipe(
        // Erased already (a forgetting of something that held it): nothing more to erase.
        Effect.catchTag("Rejected", () => Effect.void)
      )
    }
    // A reminder whose words were forgotten has nothing left to remind of.
    for (const reminderId of yield* Scrub.remindersOf(scope.messages.map((m) => m.messageId))) {
      yield* act(ReminderId.make(reminderId), ReminderCommand.Cancel({ by: owner, now, reason: "forgotten" })).pipe(Effect.catchTag("Rejected", () => Effect.void))
    }
    const forgotten = recorded._tag === "Appended" ? recorded.events.find((e) => e._tag === "Forgotten") : undefined
    const rewritten = forgotten?._tag === "Forgotten" ? yield* scrub(forgotten, yield* Scrub.sessionsOfUser(owner)) : 0
    return { forgetId, user: owner, messages: scope.messages.length, sessions: sessions.length, people: scope.people.length, rewritten } satisfies Forgot
  }).pipe(
    // A row the store cannot decode, or a forgetting recorded twice under one fresh id: defects, not refusals.
    Effect.catchTags({ ParseError: Effect.die, ForgetRefused: Effect.die })
  )
