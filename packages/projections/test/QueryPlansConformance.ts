/**
 * Every read the services offer, explained on a store holding the long mixed scenario: which
 * large tables each reads whole. The map of reads is typed by the services' own interfaces, so a
 * read added without an entry here does not compile.
 */
import { expect, it } from "@effect/vitest"
import { AskId, MessageId, NoteId, PersonId, QuestionId, ReminderId, SessionId } from "@verbatim/domain/Ids"
import { AskBook } from "@verbatim/projections/AskBook"
import { EventLog } from "@verbatim/projections/EventLog"
import { EventStore } from "@verbatim/projections/EventStore"
import { Jobs } from "@verbatim/projections/Jobs"
import { Notebook } from "@verbatim/projections/Notebook"
import type { NotebookSubject } from "@verbatim/projections/Notebook"
import { ReminderBook } from "@verbatim/projections/ReminderBook"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import type { Services } from "@verbatim/projections/Store"
import * as G from "@verbatim/testkit/Given"
import { plansOf, sorts, walks } from "@verbatim/testkit/QueryPlans"
import { DateTime, Effect, Option } from "effect"
import type { Layer } from "effect"
import { scenario } from "./Scenario.js"

/** Tables that grow with what people send; the others hold a row per process, job kind or setting. */
const large = new Set([
  "events", "messages", "message_edits", "message_media", "sessions", "plans", "notes", "note_sources",
  "note_directives", "note_erasures", "questions", "question_messages", "instructions", "people", "replies",
  "reminders", "asks", "confirmations", "forgotten_items", "idempotency_keys", "search_index"
])

type Reads<S> = { readonly [K in keyof S]: (service: S) => Effect.Effect<unknown, unknown> }

const from = DateTime.unsafeMake(0)
const to = DateTime.unsafeMake(4_000_000_000_000)
const user = G.user
const person = PersonId.make("person-1")

/** Every kind of page an export writes: a person's, a person never added (by name), the user's own notes. */
const subjects: ReadonlyArray<NotebookSubject> = [
  { _tag: "Person", user, personId: person },
  { _tag: "Named", user, name: "Ana" },
  { _tag: "Unattached", user }
]

const notebook = (cursor: string | null): Reads<Notebook["Type"]> => ({
  people: (m) => m.people({ user, limit: 2, cursor: cursor ?? undefined }),
  person: (m) => m.person(person),
  discardedCount: (m) => m.discardedCount(person),
  peopleByActivity: (m) =>
    Effect.all([m.peopleByActivity({ user, limit: 5 }), m.peopleByActivity({ limit: 5 }), m.peopleByActivity({ user, limit: 5, among: [person] })]),
  peopleNamed: (m) => m.peopleNamed(user),
  mergedInto: (m) => m.mergedInto(person),
  newestNotes: (m) => Effect.all([m.newestNotes(person, { limit: 5 }), m.newestNotes(person, { limit: 5, discarded: true, before: "1000000" })]),
  ownNotes: (m) => Effect.all([m.ownNotes(user, { limit: 5 }), m.ownNotes(user, { limit: 5, discarded: true, before: "1000000" })]),
  personNames: (m) => m.personNames(person),
  notesByPerson: (m) => m.notesByPerson(person, { limit: 2 }),
  note: (m) => m.note(NoteId.make("note-s1-a")),
  noteAudit: (m) => m.noteAudit(NoteId.make("note-s1-a")),
  questions: (m) => m.questions({ user, limit: 2, status: "open" }),
  notebookUsers: (m) => m.notebookUsers,
  notebook: (m) => m.notebook(user),
  notebookPages: (m) => m.notebookPages(user, 5),
  subjectNoteIds: (m) => Effect.forEach(subjects, (s) => Effect.all([m.subjectNoteIds(s, null, 5), m.subjectNoteIds(s, 1_000_000, 5)])),
  subjectNotes: (m) => Effect.forEach(subjects, (s) => Effect.all([m.subjectNotes(s, null, 5), m.subjectNotes(s, 1_000_000, 5)])),
  sessionAccounting: (m) => m.sessionAccounting(SessionId.make("s1")),
  sessionMessages: (m) => m.sessionMessages(SessionId.make("s1")),
  sessionPlans: (m) => m.sessionPlans(SessionId.make("s1")),
  conversationReplies: (m) => m.conversationReplies("telegram", "100000001", 5),
  search: (m) => Effect.all([m.search("Lisbon", { user, limit: 5 }), m.search("Lisbon", { limit: 5 })])
})

const eventLog: Reads<EventLog["Type"]> = {
  events: (m) => m.events(undefined, 5)
}

const sessionLookups: Reads<SessionLookups["Type"]> = {
  conversationSessions: (m) => m.conversationSessions({ user, provider: "telegram", chat: "100000001" }),
  messageSession: (m) => m.messageSession(MessageId.make("s1/1")),
  questionSession: (m) => m.questionSession(QuestionId.make("q-s2")),
  noteSession: (m) => m.noteSession(NoteId.make("note-s1-a")),
  idleSessions: (m) => m.idleSessions("2026-11-30T11:00:00.000Z", "2026-11-30T11:00:00.000Z"),
  sessionUser: (m) => m.sessionUser(SessionId.make("s1")),
  knownPeople: (m) => m.knownPeople(user),
  contactsBefore: (m) => m.contactsBefore(user, 1_000),
  sentMessages: (m) => m.sentMessages({ user, from, to, text: "thanks bot" }),
  sentReplies: (m) => m.sentReplies({ provider: "telegram", chat: "100000001", from, to })
}

const jobs: Reads<Jobs["Type"]> = {
  unplannedSessions: (m) => m.unplannedSessions,
  failedSessions: (m) => m.failedSessions(user),
  newestReplyId: (m) => m.newestReplyId("telegram", "100000001", "reply-"),
  repliesSince: (m) => m.repliesSince("telegram", "100000001", "reply-", 0, 5),
  queuedReplies: (m) => m.queuedReplies(5),
  closedSessions: (m) => m.closedSessions(Option.some(from)),
  mediaWork: (m) => m.mediaWork(5),
  mediaOf: (m) => m.mediaOf(SessionId.make("s1")),
  queueDepths: (m) => m.queueDepths,
  awaitingPlan: (m) => Effect.all([m.awaitingPlan(user, 100), m.awaitingPlan(undefined, 100)]),
  ping: (m) => m.ping
}

const reminderBook: Reads<ReminderBook["Type"]> = {
  due: (b) => b.due(1_000_000, 5),
  nextDue: (b) => b.nextDue,
  of: (b) => b.of(user, ["scheduled", "delivered"], 5),
  get: (b) => b.get(ReminderId.make("reminder-s1")),
  ofMessage: (b) => b.ofMessage(MessageId.make("s1/2")),
  ofSession: (b) => b.ofSession(SessionId.make("s1")),
  released: (b) => b.released(5),
  lastHeardFrom: (b) => b.lastHeardFrom(user),
  withoutTheirWords: (b) => b.withoutTheirWords(5),
  zoneOf: (b) => b.zoneOf(user),
  owed: (b) => b.owed(5)
}

const askBook: Reads<AskBook["Type"]> = {
  owed: (b) => b.owed(5),
  get: (b) => b.get(AskId.make("ask-s1")),
  of: (b) => b.of(user, 5),
  candidates: (b) => b.candidates(user, "what about Lisbon?", ["lisbon"]),
  quoted: (b) => b.quoted([MessageId.make("s1/1"), MessageId.make("s2/1")]),
  texts: (b) => b.texts([MessageId.make("s1/1"), MessageId.make("s2/1")])
}

/** For each read (`Service.read`), where its statements walk a large table end to end or sort what they found, each once, in statement order. */
const walksOf = <S>(serviceName: string, service: S, reads: Reads<S>) =>
  Effect.forEach(Object.entries(reads) as Array<[string, (s: S) => Effect.Effect<unknown, unknown>]>, ([name, read]) =>
    Effect.map(plansOf(Effect.orDie(read(service))), ({ explained }) =>
      [`${serviceName}.${name}`, [...new Set(explained.flatMap((e) => [...walks(e, large), ...sorts(e, large)]))]] as const))

/** Register the suite for one backend. */
export const queryPlansConformance = (layer: () => Layer.Layer<Services, unknown>, expected: Record<string, ReadonlyArray<string>>) =>
  it.effect("no read walks a large table end to end or sorts what it found but those named", () =>
    Effect.gen(function*() {
      const store = yield* EventStore
      for (const [stream, events] of scenario(12)) yield* store.append(stream, "any", events)
      const model = yield* Notebook
      const first = yield* model.people({ user, limit: 2 })
      const found = [
        ...(yield* walksOf("Notebook", model, notebook(first.nextCursor))),
        ...(yield* walksOf("EventLog", yield* EventLog, eventLog)),
        ...(yield* walksOf("SessionLookups", yield* SessionLookups, sessionLookups)),
        ...(yield* walksOf("Jobs", yield* Jobs, jobs)),
        ...(yield* walksOf("ReminderBook", yield* ReminderBook, reminderBook)),
        ...(yield* walksOf("AskBook", yield* AskBook, askBook))
      ]
      expect(Object.fromEntries(found.filter(([, tables]) => tables.length > 0))).toEqual(expected)
    }).pipe(Effect.provide(layer())), { timeout: 120_000 })
