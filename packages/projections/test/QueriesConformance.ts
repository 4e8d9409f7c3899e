/** Audit, accounting and list queries, run against every backend. */
import { expect, it } from "@effect/vitest"
import { attachment } from "@verbatim/domain/Attachment"
import { MessageId, NoteId, PersonId, PlanId, QuestionId, SessionId, UserId } from "@verbatim/domain/Ids"
import { EventLog } from "@verbatim/projections/EventLog"
import { EventStore, start } from "@verbatim/projections/EventStore"
import { Notebook } from "@verbatim/projections/Notebook"
import type { Services } from "@verbatim/projections/Store"
import * as G from "@verbatim/testkit/Given"
import { DateTime, Effect, Option } from "effect"
import type { Layer } from "effect"

const ana = { personId: "person-ana", name: "Ana" }
const mid = (id: string) => MessageId.make(id)

/** A user's people and notes: Bo, then Ana added; notes about Ana, Bo, Ana, no one, Ana. */
const notebookHistory = G.given(
  ["person-bo", [G.personAdded("person-bo", "Bo")]],
  ["person-ana", [G.personAdded("person-ana", "Ana")]],
  [G.sessionStream("n"), [
    G.messageReceived("n", 1, "Ana loves jazz."),
    G.messageReceived("n", 2, "Bo plays chess."),
    G.messageReceived("n", 3, "Ana moved to Porto."),
    G.messageReceived("n", 4, "Buy milk."),
    G.messageReceived("n", 5, "Ana likes figs. File under Ana."),
    G.messageReceived("n", 6, "File under Ana."),
    G.messageReceived("n", 7, "She hates olives."),
    G.noteRecorded("n", "note-ana-1", [1], { person: ana }),
    G.noteRecorded("n", "note-bo", [2], { person: { personId: "person-bo", name: "Bo" } }),
    G.noteRecorded("n", "note-ana-2", [3], { person: ana }),
    G.noteRecorded("n", "note-own", [4], { person: null }),
    G.noteRecorded("n", "note-ana-3", [5, 6, 7], { person: ana, directives: [[5, "File under Ana."], [6, "File under Ana."]] })
  ]]
)

/** Register the suite for one backend; each test gets a fresh database. */
export const queriesConformance = (layer: () => Layer.Layer<Services, unknown>) => {
  it.effect("the audit traces a note to message offsets, directives, plan, merges and edits", () =>
    Effect.gen(function*() {
      yield* G.given([G.sessionStream("a"), [
        G.sessionOpened("a"),
        G.messageReceived("a", 1, "Met Ana at the café."),
        G.messageReceived("a", 2, "She moves to Lisbon, remind me tomorrow"),
        G.planProduced("a", "plan-a", 2),
        G.noteRecorded("a", "note-1", [1, 2], {
          planId: "plan-a", person: ana, directives: [[2, ", remind me tomorrow"]], mergedFrom: 2
        }),
        G.messageEdited("a", 1, "Met Ana at the bakery.", 60)
      ]])
      const audit = yield* (yield* Notebook).noteAudit(NoteId.make("note-1"))
      expect(audit).toEqual(Option.some({
        note: {
          id: NoteId.make("note-1"),
          user: G.user,
          sessionId: SessionId.make("a"),
          owner: { _tag: "Person", contactId: "person-ana", name: "Ana" },
          personId: PersonId.make("person-ana"),
          body: "Met Ana at the bakery.\n\nShe moves to Lisbon",
          sources: [{ messageId: mid("a/1"), seq: 1 }, { messageId: mid("a/2"), seq: 2 }],
          recordedAt: DateTime.unsafeMake(0)
        },
        segments: [
          { _tag: "Slice", messageId: mid("a/1"), start: 0, end: 22 },
          { _tag: "Separator", text: "\n\n" },
          { _tag: "Slice", messageId: mid("a/2"), start: 0, end: 19 }
        ],
        sources: [
          {
            messageId: mid("a/1"), seq: 1, providerMessageId: "p-a-1", text: "Met Ana at the bakery.", provider: "telegram", sentAt: G.at(1),
            receivedAt: G.at(1), forwardedFrom: null,
            parts: [{ start: 0, end: 22, origin: { _tag: "Sender" } }],
            edits: [{ previousText: "Met Ana at the café.", text: "Met Ana at the bakery.", editedAt: G.at(60) }],
            media: []
          },
          {
            messageId: mid("a/2"), seq: 2, providerMessageId: "p-a-2", text: "She moves to Lisbon, remind me tomorrow",
            parts: [{ start: 0, end: 39, origin: { _tag: "Sender" } }], provider: "telegram", sentAt: G.at(2), receivedAt: G.at(2),
            forwardedFrom: null, edits: [], media: []
          }
        ],
        directives: [{ messageId: mid("a/2"), seq: 2, text: ", remind me tomorrow", start: 19, end: 39 }],
        plan: {
          planId: PlanId.make("plan-a"), promptVersion: "v1", promptHash: "sha256:abc", model: "claude-test",
          usage: { inputTokens: 120, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0 }
        },
        mergedFrom: 2,
        confirmation: null,
        discardedAt: null,
        curation: [],
        filedUnder: { personId: PersonId.make("person-ana"), name: "Ana" },
        reminders: [],
        erased: []
      }))
    }).pipe(Effect.provide(layer())))

  it.effect("a note made by an answer shows the confirmation; an unknown note has no audit", () =>
    Effect.gen(function*() {
      yield* G.given([G.sessionStream("c"), [
        G.messageReceived("c", 1, "Her brother called?"),
        G.questionParked("c", "q-1", [1]),
        G.questionAnswered("c", "q-1"),
        G.noteRecorded("c", "note-c", [1], { planId: null, questionId: "q-1", person: ana })
      ]])
      const read = yield* Notebook
      const audit = yield* read.noteAudit(NoteId.make("note-c"))
      expect(Option.map(audit, (a) => ({ plan: a.plan, confirmation: a.confirmation }))).toEqual(Option.some({
        plan: null,
        confirmation: { questionId: QuestionId.make("q-1"), answer: { _tag: "Person", contactId: null, name: "Ana" }, answeredAt: G.at(900) }
      }))
      expect(yield* read.noteAudit(NoteId.make("nope"))).toEqual(Option.none())
    }).pipe(Effect.provide(layer())))

  it.effect("the audit says which characters came from the sender, which from a transcriber with its model, and which from the rendering", () =>
    Effect.gen(function*() {
      const voice = attachment("voice", "voice-1", { duration: 42 })
      yield* G.given([G.sessionStream("v"), [
        G.sessionOpened("v"),
        G.messageReceived("v", 1, "From Ana:", { kind: "caption", attachments: [voice] }),
        G.mediaFetched("v", 1, 0, "a".repeat(64), 610),
        G.mediaTranscribed("v", 1, 0, "She moved to Porto.", 620, "whisper-large-v3"),
        G.sessionClosed("v", 1),
        G.planProduced("v", "plan-v", 1),
        G.noteRecorded("v", "note-v", [1], { planId: "plan-v" })
      ]])
      const audit = Option.getOrThrow(yield* (yield* Notebook).noteAudit(NoteId.make("note-v")))
      expect(audit.note.body).toBe("From Ana:\n🎤 She moved to Porto.")
      const [source] = audit.sources
      expect(source?.parts.map((p) => [source.text.slice(p.start, p.end), p.origin])).toEqual([
        ["From Ana:", { _tag: "Sender" }],
        ["\n", { _tag: "Rendering", attachment: null }],
        ["🎤 ", { _tag: "Rendering", attachment: 0 }],
        ["She moved to Porto.", { _tag: "Derived", attachment: 0, source: "speech", model: "whisper-large-v3" }]
      ])
    }).pipe(Effect.provide(layer())))

  it.effect("accounting gives every message exactly one current disposition", () =>
    Effect.gen(function*() {
      yield* G.given([G.sessionStream("b"), [
        G.sessionOpened("b"),
        G.messageReceived("b", 1, "Ana loves jazz."),
        G.messageReceived("b", 2, "Her brother called?"),
        G.messageReceived("b", 3, "thanks bot"),
        G.messageReceived("b", 4, "still thinking"),
        G.messageReceived("b", 5, "", { kind: "media-without-text", attachments: [attachment("voice", "voice-5", { duration: 7 })] }),
        G.messageReceived("b", 6, "Ana's birthday is in May, remind me"),
        G.sessionClosed("b", 6),
        G.planProduced("b", "plan-b", 6),
        G.noteRecorded("b", "note-1", [1, 6], { planId: "plan-b", directives: [[6, ", remind me"]] }),
        G.questionParked("b", "q-1", [2]),
        G.instructionRecorded("b", 3, "thanks bot"),
        G.instructionRecorded("b", 6, ", remind me", "directive"),
        { _tag: "PlanApplied", planId: PlanId.make("plan-b"), sessionId: SessionId.make("b"), noteIds: [], questionIds: [], warnings: [] }
      ]])
      const accounting = yield* (yield* Notebook).sessionAccounting(SessionId.make("b"))
      const note1 = { _tag: "InNote", noteId: NoteId.make("note-1") } as const
      expect(accounting).toEqual(Option.some({
        sessionId: SessionId.make("b"),
        user: G.user,
        status: "planned",
        messages: [
          { messageId: mid("b/1"), seq: 1, dispositions: [note1], disposition: note1 },
          {
            messageId: mid("b/2"), seq: 2,
            dispositions: [{ _tag: "InQuestion", questionId: QuestionId.make("q-1") }],
            disposition: { _tag: "InQuestion", questionId: QuestionId.make("q-1") }
          },
          {
            messageId: mid("b/3"), seq: 3,
            dispositions: [{ _tag: "Instruction", kind: "message", text: "thanks bot" }],
            disposition: { _tag: "Instruction", kind: "message", text: "thanks bot" }
          },
          { messageId: mid("b/4"), seq: 4, dispositions: [], disposition: { _tag: "AwaitingPlan" } },
          { messageId: mid("b/5"), seq: 5, dispositions: [], disposition: { _tag: "AwaitingTranscription" } },
          {
            messageId: mid("b/6"), seq: 6,
            dispositions: [note1, { _tag: "Instruction", kind: "directive", text: ", remind me" }],
            disposition: note1
          }
        ],
        reminders: []
      }))
    }).pipe(Effect.provide(layer())))

  it.effect("a message filed whole as an instruction is accounted for with its edited text, edited before or after the plan", () =>
    Effect.gen(function*() {
      yield* G.given([G.sessionStream("e"), [
        G.sessionOpened("e"),
        G.messageReceived("e", 1, "remind me tomorrow"),
        G.messageReceived("e", 2, "Ana's birthday is in May, remind me"),
        G.sessionClosed("e", 2),
        G.planProduced("e", "plan-1", 2),
        G.noteRecorded("e", "note-e", [2], { directives: [[2, ", remind me"]] }),
        G.instructionRecorded("e", 1, "remind me tomorrow"),
        G.instructionRecorded("e", 2, ", remind me", "directive"),
        G.planApplied("e", "plan-1"),
        G.messageEdited("e", 1, "Ana moved to Paris", 700),
        G.messageEdited("e", 2, "Ana's birthday is in June, remind me", 710)
      ]], [G.sessionStream("f"), [
        // The plan job read the session before this edit, which slipped in before its append.
        G.sessionOpened("f"),
        G.messageReceived("f", 1, "remind me tomorrow"),
        G.sessionClosed("f", 1),
        G.messageEdited("f", 1, "remind me on Friday", 700),
        G.planProduced("f", "plan-f", 1),
        G.instructionRecorded("f", 1, "remind me tomorrow", "message", "plan-f"),
        G.planApplied("f", "plan-f")
      ]])
      const accounting = yield* (yield* Notebook).sessionAccounting(SessionId.make("e"))
      const edited = { _tag: "Instruction", kind: "message", text: "Ana moved to Paris" } as const
      const note = { _tag: "InNote", noteId: NoteId.make("note-e") } as const
      expect(Option.map(accounting, (a) => a.messages)).toEqual(Option.some([
        { messageId: mid("e/1"), seq: 1, dispositions: [edited], disposition: edited },
        { messageId: mid("e/2"), seq: 2, dispositions: [note, { _tag: "Instruction", kind: "directive", text: ", remind me" }], disposition: note }
      ]))
      const raced = { _tag: "Instruction", kind: "message", text: "remind me on Friday" } as const
      expect(Option.map(yield* (yield* Notebook).sessionAccounting(SessionId.make("f")), (a) => a.messages)).toEqual(Option.some([
        { messageId: mid("f/1"), seq: 1, dispositions: [raced], disposition: raced }
      ]))
    }).pipe(Effect.provide(layer())))

  it.effect("a person by id with their note count, and their notes newest first, a page at a time", () =>
    Effect.gen(function*() {
      yield* G.given(
        ["person-ana", [G.personAdded("person-ana", "Ana")]],
        [G.sessionStream("n"), [
          G.messageReceived("n", 1, "Ana loves jazz."),
          G.messageReceived("n", 2, "Ana moved to Porto."),
          G.messageReceived("n", 3, "Ana has a cat."),
          G.noteRecorded("n", "note-1", [1], { person: ana }),
          G.noteRecorded("n", "note-2", [2], { person: ana }),
          G.noteRecorded("n", "note-3", [3], { person: ana })
        ]]
      )
      const read = yield* Notebook
      expect(Option.map(yield* read.person(PersonId.make("person-ana")), (p) => [p.name, p.user, p.noteCount])).toEqual(Option.some(["Ana", G.user, 3]))
      expect(yield* read.person(PersonId.make("person-nobody"))).toEqual(Option.none())
      // Newest first, a page at a time: each full page names the next, which starts below its last note.
      const page = (before: string | null) =>
        Effect.map(read.newestNotes(PersonId.make("person-ana"), { limit: 2, before: before ?? undefined }), (p) => ({
          notes: p.items.map((n) => [n.id, n.body]),
          next: p.nextCursor
        }))
      const first = yield* page(null)
      expect(first.notes).toEqual([["note-3", "Ana has a cat."], ["note-2", "Ana moved to Porto."]])
      expect(first.next).not.toBeNull()
      expect(yield* page(first.next)).toEqual({ notes: [["note-1", "Ana loves jazz."]], next: null })
      // A page that holds the last notes exactly names no next page.
      expect(yield* page(String(Number(first.next) + 1))).toEqual({ notes: [["note-2", "Ana moved to Porto."], ["note-1", "Ana loves jazz."]], next: null })
      expect(yield* read.newestNotes(PersonId.make("person-ana"), { limit: 2, discarded: true })).toEqual({ items: [], nextCursor: null })
      expect(yield* read.discardedCount(PersonId.make("person-ana"))).toEqual(0)
    }).pipe(Effect.provide(layer())))

  it.effect("lists: people by user, a person's notes with bodies, open questions, events after a position", () =>
    Effect.gen(function*() {
      yield* G.given(
        ["person-ana", [G.personAdded("person-ana", "Ana")]],
        ["person-bo", [G.personAdded("person-bo", "Bo")]],
        [G.sessionStream("d"), [
          G.messageReceived("d", 1, "Ana loves jazz."),
          G.messageReceived("d", 2, "Who called?", { forwardedFrom: "Carol" }),
          G.noteRecorded("d", "note-d", [1], { person: ana }),
          G.questionParked("d", "q-d", [2])
        ]]
      )
      const read = yield* Notebook
      const people = yield* read.people({ user: G.user, limit: 1 })
      const rest = yield* read.people({ user: G.user, limit: 1, cursor: people.nextCursor ?? undefined })
      expect([people.items.map((p) => [p.name, p.noteCount]), people.nextCursor, rest.items.map((p) => p.name)])
        .toEqual([[["Ana", 1]], "person-ana", ["Bo"]])
      const notes = yield* read.notesByPerson(PersonId.make("person-ana"), { limit: 10 })
      expect(Option.map(notes, (page) => page.items.map((n) => [n.id, n.body]))).toEqual(Option.some([["note-d", "Ana loves jazz."]]))
      expect(yield* read.notesByPerson(PersonId.make("person-nobody"), { limit: 10 })).toEqual(Option.none())
      const open = yield* read.questions({ user: G.user, limit: 10 })
      expect(open.items.map((q) => [q.id, q.status, q.sources])).toEqual([
        ["q-d", "open", [{ messageId: mid("d/2"), seq: 2, text: "Who called?" }]]
      ])
      const pages = yield* EventLog
      const first = yield* pages.events(undefined, 2)
      const events = yield* pages.events(first.nextAfter, 2)
      expect([...first.events, ...events.events].map((e) => [e.streamId, e.streamVersion, e.event._tag])).toEqual([
        ["person-ana", 1, "PersonAdded"],
        ["person-bo", 1, "PersonAdded"],
        ["session-d", 1, "MessageReceived"],
        ["session-d", 2, "MessageReceived"]
      ])
      const log = yield* (yield* EventStore).readPage(start, 4)
      expect([...first.events, ...events.events].map((e) => e.cursor)).toEqual(log.map((r) => `${r.txId}:${r.position}`))
      expect([first.nextAfter, events.nextAfter]).toEqual([first.events[1]!.cursor, events.events[1]!.cursor])
      expect(yield* read.sessionMessages(SessionId.make("d"))).toEqual([
        { id: mid("d/1"), seq: 1, text: "Ana loves jazz.", kind: "text", forwardedFrom: null },
        { id: mid("d/2"), seq: 2, text: "Who called?", kind: "text", forwardedFrom: "Carol" }
      ])
    }).pipe(Effect.provide(layer())))

  it.effect("the notebook groups a user's notes by person in the order people were added, newest first, with their sources and where each one's words end", () =>
    Effect.gen(function*() {
      yield* notebookHistory
      const read = yield* Notebook
      expect(yield* read.notebookUsers).toEqual([G.user])
      const book = yield* read.notebook(G.user)
      const sourceOf = (seq: number, bodyEnd: number | null) => ({
        messageId: mid(`n/${seq}`), seq, provider: "telegram", providerMessageId: `p-n-${seq}`, receivedAt: G.at(seq), forwardedFrom: null, bodyEnd
      })
      // The time each note was recorded is the log's; everything else is asserted whole.
      const recordedAt = new Map([...book.people.flatMap((p) => p.notes), ...book.unattached].map((n) => [n.id, n.recordedAt]))
      const noteOf = (id: string, body: string, seq: number) => ({
        id, sessionId: "n", body, recordedAt: recordedAt.get(NoteId.make(id)), sources: [sourceOf(seq, body.length)]
      })
      // The second message is all cut: none of its words are in the body.
      const figs = {
        ...noteOf("note-ana-3", "Ana likes figs.\n\nShe hates olives.", 5),
        sources: [sourceOf(5, 15), sourceOf(6, null), sourceOf(7, 34)]
      }
      expect(book).toEqual({
        user: G.user,
        people: [
          { personId: "person-bo", name: "Bo", notes: [noteOf("note-bo", "Bo plays chess.", 2)] },
          { personId: "person-ana", name: "Ana", notes: [figs, noteOf("note-ana-2", "Ana moved to Porto.", 3), noteOf("note-ana-1", "Ana loves jazz.", 1)] }
        ],
        unattached: [noteOf("note-own", "Buy milk.", 4)]
      })
      expect(yield* read.notebook(UserId.make("telegram:999"))).toEqual({ user: "telegram:999", people: [], unattached: [] })
    }).pipe(Effect.provide(layer())))

  it.effect("a notebook's pages in the order people were added, with their note counts and newest times, and a page's notes a keyset page at a time, newest first", () =>
    Effect.gen(function*() {
      yield* notebookHistory
      const read = yield* Notebook
      const anaPages = { _tag: "Person", user: G.user, personId: PersonId.make("person-ana") } as const
      const boPages = { _tag: "Person", user: G.user, personId: PersonId.make("person-bo") } as const
      const ownPages = { _tag: "Unattached", user: G.user } as const
      // A page of one note at a time: each full page's `before` is its note's position, the next page reads from there.
      const first = yield* read.subjectNotes(anaPages, null, 1)
      const second = yield* read.subjectNotes(anaPages, first.before, 1)
      const third = yield* read.subjectNotes(anaPages, second.before, 1)
      // The time each note was recorded is the log's; everything else is asserted whole.
      const at = (page: { readonly items: ReadonlyArray<{ readonly recordedAt: DateTime.Utc }> }) => page.items[0]!.recordedAt
      const sourceOf = (seq: number, bodyEnd: number | null) => ({
        messageId: mid(`n/${seq}`), seq, provider: "telegram", providerMessageId: `p-n-${seq}`, receivedAt: G.at(seq), forwardedFrom: null, bodyEnd
      })
      const noteOf = (id: string, body: string, seq: number, recordedAt: DateTime.Utc) => ({
        id, sessionId: "n", body, recordedAt, sources: [sourceOf(seq, body.length)]
      })
      // The second message is all cut: none of its words are in the body.
      const figs = { ...noteOf("note-ana-3", "Ana likes figs.\n\nShe hates olives.", 5, at(first)), sources: [sourceOf(5, 15), sourceOf(6, null), sourceOf(7, 34)] }
      const porto = noteOf("note-ana-2", "Ana moved to Porto.", 3, at(second))
      const jazz = noteOf("note-ana-1", "Ana loves jazz.", 1, at(third))
      expect([first.items, second.items, third.items]).toEqual([[figs], [porto], [jazz]])
      expect(yield* read.subjectNotes(anaPages, third.before, 1)).toEqual({ items: [], before: null })
      expect(yield* read.subjectNotes(anaPages, null, 2)).toEqual({ items: [figs, porto], before: second.before })
      expect(yield* read.subjectNotes(anaPages, second.before, 2)).toEqual({ items: [jazz], before: null })
      expect(yield* read.subjectNoteIds(anaPages, null, 2)).toEqual({ items: ["note-ana-3", "note-ana-2"], before: second.before })
      expect(yield* read.subjectNoteIds(anaPages, second.before, 2)).toEqual({ items: ["note-ana-1"], before: null })
      const ownNotes = yield* read.subjectNotes(ownPages, null, 2)
      expect(ownNotes).toEqual({ items: [noteOf("note-own", "Buy milk.", 4, at(ownNotes))], before: null })
      expect(yield* read.subjectNotes({ _tag: "Named", user: G.user, name: "Ana" }, null, 2)).toEqual({ items: [], before: null })
      // The pages, whether their notes' owners are read one at a time or all at once.
      const boNotes = yield* read.subjectNotes(boPages, null, 1)
      const ownOne = yield* read.subjectNotes(ownPages, null, 1)
      const pages = {
        people: [
          { subject: boPages, personId: "person-bo", name: "Bo", noteCount: 1, updated: at(boNotes), newest: boNotes.before },
          { subject: anaPages, personId: "person-ana", name: "Ana", noteCount: 3, updated: at(first), newest: first.before }
        ],
        unattached: { subject: ownPages, personId: null, name: "", noteCount: 1, updated: at(ownNotes), newest: ownOne.before }
      }
      expect(yield* read.notebookPages(G.user, 1)).toEqual(pages)
      expect(yield* read.notebookPages(G.user, 10)).toEqual(pages)
      // Another user's pages hold none of these notes.
      const other = UserId.make("telegram:999")
      expect(yield* read.notebookPages(other, 10)).toEqual({ people: [], unattached: null })
      expect(yield* read.subjectNotes({ ...anaPages, user: other }, null, 10)).toEqual({ items: [], before: null })
    }).pipe(Effect.provide(layer())))
}
