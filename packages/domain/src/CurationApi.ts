/**
 * The curation endpoints: a note moved, split, discarded or restored, a person renamed, merged or
 * unmerged.
 * Each is a command through a decider and an event in the log, so nothing is deleted and
 * `rebuild` reproduces the result; a change that changes nothing (sent twice) is a 409.
 */
import { HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Authorization, BadRequest, changeEndpoint } from "./ApiErrors.js"
import { AnswerPayload, Note, Person, storable } from "./ApiResponses.js"
import { NoteId, PersonId } from "./Ids.js"

const NotePath = Schema.Struct({ id: NoteId })
const PersonPath = Schema.Struct({ id: PersonId })

export const MovePayload = Schema.Struct({ to: AnswerPayload.fields.answer })
  .annotations({ message: () => "must be a JSON object {\"to\": {\"_tag\":\"Person\",\"contactId\":…,\"name\":…} or {\"_tag\":\"Unattached\"}}" })

export const SplitPayload = Schema.Struct({
  atSeq: Schema.Number.pipe(Schema.int(), Schema.positive()).annotations({ message: () => ({ message: "must be a message's seq, a whole number from 1", override: true }) })
}).annotations({ message: () => "must be a JSON object {\"atSeq\": n}" })

export const RenamePayload = Schema.Struct({
  name: Schema.Trim.pipe(Schema.nonEmptyString({ message: () => "must not be empty" }), storable)
}).annotations({ message: () => "must be a JSON object {\"name\": \"…\"}" })

export const MergePayload = Schema.Struct({ into: PersonId }).annotations({ message: () => "must be a JSON object {\"into\": \"person id\"}" })

/** A note split in two: the part kept and the new note. */
export const SplitResult = Schema.Struct({ note: Note, newNote: Note })

/** A change to one note or person: answered with what it now reads, 404 when there is none, 409 when nothing changed. */
const change = changeEndpoint

const noteChange = <Name extends string, Path extends `/${string}`>(name: Name, path: Path, summary: string, description: string) =>
  change(name, path, summary, description).setPath(NotePath).addSuccess(Note)

export class CurationGroup extends HttpApiGroup.make("curation")
  .add(
    noteChange("moveNote", "/notes/:id/move", "Move a note", "Files the note under another person of its user's (by contact id or name; a new name adds a person) or as the sender's own notes (`Unattached`). A discarded note is restored first (409).")
      .setPayload(MovePayload)
  )
  .add(
    change("splitNote", "/notes/:id/split", "Split a note", "Cuts the note before its message `atSeq`: that message and the later ones, with the instructions cut from them, become a new note with the same owner. `atSeq` must be a message of the note other than its first.")
      .setPath(NotePath)
      .setPayload(SplitPayload)
      .addSuccess(SplitResult)
  )
  .add(noteChange("discardNote", "/notes/:id/discard", "Discard a note", "Sets the note aside: it leaves its person's notes, its messages read `Discarded` in the session's accounting, and it stays in the log, restorable."))
  .add(noteChange("restoreNote", "/notes/:id/restore", "Restore a note", "Brings a discarded note back as it was."))
  .add(
    change("renamePerson", "/people/:id/rename", "Rename a person", "Gives a person another name (trimmed). A name another of the user's people has is refused: merge them instead.")
      .setPath(PersonPath)
      .setPayload(RenamePayload)
      .addSuccess(Person)
  )
  .add(
    change("mergePeople", "/people/:id/merge", "Merge two people", "Folds this person into `into`, another person of the same user: their notes become `into`'s, and a later plan or answer naming them files under `into`. Answers with `into`.")
      .setPath(PersonPath)
      .setPayload(MergePayload)
      .addSuccess(Person)
  )
  .add(
    change("unmergePeople", "/people/:id/unmerge", "Undo a merge", "Undoes the merge that folded this person into another (directly, or through a chain of merges): they are their own person again with the notes that were theirs when merged (filed under them, or under people still merged into them); notes filed under the other person since stay there. A person not merged is a 409. Answers with this person.")
      .setPath(PersonPath)
      .addSuccess(Person)
  )
  .addError(BadRequest)
  .middleware(Authorization)
  .prefix("/api")
{}
