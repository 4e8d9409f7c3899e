/**
 * Curation: a user's changes to their notes and people, each a command through a decider. A note's
 * change is decided on its session's stream (`Sessions.execute`); a rename, merge or unmerge by the people
 * decider on the user's people stream; both through the runner, so a change sent twice, or from
 * two devices at once, is recorded once and the second is refused as unchanged.
 */
import type { Answer, Event } from "@verbatim/domain/Events"
import type { NoteId, PersonId, UserId } from "@verbatim/domain/Ids"
import * as People from "@verbatim/domain/People/Decide"
import { Command, type Rejected } from "@verbatim/domain/Session/Commands"
import { peopleStream } from "@verbatim/domain/Streams"
import type { EventStore, StoreError } from "@verbatim/projections/EventStore"
import type { FoldCache } from "@verbatim/projections/FoldCache"
import { Notebook } from "@verbatim/projections/Notebook"
import { SessionLookups } from "@verbatim/projections/SessionLookups"
import { Data, DateTime, Effect, Option } from "effect"
import { IdGenerator } from "./IdGenerator.js"
import * as Runner from "./Runner.js"
import { execute } from "./Sessions.js"

/** Why a curation changed nothing. `missing`: no such note or person, or not the asker's. */
export class CurationRefused extends Data.TaggedError("CurationRefused")<{
  readonly reason: "missing" | "unchanged" | "discarded" | "invalid"
  readonly detail: string
}> {}

const refusal = (e: Rejected): CurationRefused => {
  switch (e.reason) {
    case "unchanged":
    case "discarded":
    case "invalid":
      return new CurationRefused({ reason: e.reason, detail: e.detail })
    default:
      return new CurationRefused({ reason: "missing", detail: e.detail })
  }
}

/** What every curation runs on. */
export type Services = EventStore | FoldCache | SessionLookups | Notebook | IdGenerator

/** Run a note command on the note's session; the events appended, or why none were. */
const onNote = (
  noteId: NoteId,
  command: (user: UserId | null) => Effect.Effect<Command, StoreError, Services>
): Effect.Effect<ReadonlyArray<Event>, CurationRefused | StoreError, Services> =>
  Effect.gen(function*() {
    const read = yield* SessionLookups
    const sessionId = yield* read.noteSession(noteId)
    if (Option.isNone(sessionId)) return yield* new CurationRefused({ reason: "missing", detail: `no note ${noteId}` })
    const done = yield* execute(sessionId.value, (state) => command(state.user)).pipe(Effect.mapError((e) => e._tag === "Rejected" ? refusal(e) : e))
    return done._tag === "Appended" ? done.events : []
  })

/** File a note under another person (one of the user's, or new by name) or the sender's own notes. */
export const moveNote = (noteId: NoteId, to: Answer, asker: UserId | null) =>
  onNote(noteId, (user) =>
    Effect.gen(function*() {
      const known = user === null ? [] : yield* Effect.flatMap(SessionLookups, (read) => read.knownPeople(user))
      const ids = yield* Effect.flatMap(IdGenerator, (g) => g.supply)
      return Command.MoveNote({ noteId, to, asker, known, ids, now: yield* DateTime.now })
    })).pipe(Effect.withSpan("Curation.moveNote", { attributes: { noteId } }))

/** Cut a note in two before its message `atSeq`; the new note's id. */
export const splitNote = (noteId: NoteId, atSeq: number, asker: UserId | null) =>
  onNote(noteId, () =>
    Effect.gen(function*() {
      const ids = yield* Effect.flatMap(IdGenerator, (g) => g.supply)
      return Command.SplitNote({ noteId, atSeq, asker, ids, now: yield* DateTime.now })
    })).pipe(
      Effect.flatMap((events) => {
        const split = events.find((e) => e._tag === "NoteSplit")
        return split?._tag === "NoteSplit" ? Effect.succeed(split.newNoteId) : Effect.dieMessage("a split decided no NoteSplit")
      }),
      Effect.withSpan("Curation.splitNote", { attributes: { noteId, atSeq } })
    )

/** Discard a note (`discard`), or restore it. */
export const discardNote = (noteId: NoteId, discard: boolean, asker: UserId | null) =>
  onNote(noteId, () => Effect.map(DateTime.now, (now) => Command.DiscardNote({ noteId, discard, asker, now })))
    .pipe(Effect.withSpan("Curation.discardNote", { attributes: { noteId, discard } }))

type PeopleChange =
  | { readonly _tag: "Rename"; readonly personId: PersonId; readonly name: string }
  | { readonly _tag: "Merge"; readonly from: PersonId; readonly into: PersonId }
  | { readonly _tag: "Unmerge"; readonly personId: PersonId }

/** Decide a people change on the person's user's people stream, through the runner. */
const onPeople = (personId: PersonId, change: PeopleChange, asker: UserId | null) =>
  Effect.gen(function*() {
    const read = yield* SessionLookups
    const person = yield* Effect.flatMap(Notebook, (notebook) => notebook.person(personId))
    if (Option.isNone(person)) return yield* new CurationRefused({ reason: "missing", detail: `no person ${personId}` })
    const user = person.value.user
    const command = () =>
      Effect.map(Effect.all({ known: read.knownPeople(user), now: DateTime.now }), ({ known, now }) => ({ user, asker, known, now, ...change }))
    const done = yield* Runner.run(People.peopleDecider, peopleStream(user), command).pipe(Effect.mapError((e) => e._tag === "Rejected" ? refusal(e) : e))
    return done._tag === "Appended" ? done.events : []
  })

/** Give a person another name. */
export const renamePerson = (personId: PersonId, name: string, asker: UserId | null) =>
  onPeople(personId, { _tag: "Rename", personId, name }, asker).pipe(Effect.withSpan("Curation.renamePerson", { attributes: { personId } }))

/** Fold person `from` into `into`: their notes become `into`'s. */
export const mergePeople = (from: PersonId, into: PersonId, asker: UserId | null) =>
  onPeople(from, { _tag: "Merge", from, into }, asker).pipe(Effect.withSpan("Curation.mergePeople", { attributes: { from, into } }))

/** Undo the merge that took `personId` away: the notes that were theirs are theirs again; whom they had joined. */
export const unmergePeople = (personId: PersonId, asker: UserId | null) =>
  onPeople(personId, { _tag: "Unmerge", personId }, asker).pipe(
    Effect.flatMap((events) => {
      const unmerged = events.find((e) => e._tag === "PeopleUnmerged")
      return unmerged?._tag === "PeopleUnmerged" ? Effect.succeed(unmerged.from) : Effect.dieMessage("an unmerge decided no PeopleUnmerged")
    }),
    Effect.withSpan("Curation.unmergePeople", { attributes: { personId } })
  )
