/**
 * What a user changes of their notes by hand, on the notes projection's tables: a note moved to
 * another person, split in two, discarded or restored, and the notes of a person renamed, merged
 * into another or unmerged. Every change sets absolute values, so applying an event again changes
 * nothing. A note keeps whom it was filed under (`filed_person_id`) through merges: an unmerge
 * takes back the notes filed under the person, or under those still merged into them.
 */
import type { CurationEvent } from "@verbatim/domain/CurationEvents"
import { absurd } from "effect"
import type { StoredOf } from "../EventCodec.js"
import { deriveBody, livePerson } from "./Notes.js"
import type { Projection } from "./Projection.js"
import type { Batch } from "./Rows.js"

/**
 * The owner columns of a note filed under `personId` (`null`: the sender's own notes), named
 * `name`. Only rows the event's `wants` named are read, so a page of a rebuild, whatever else it
 * loaded, writes what the live path wrote.
 */
const ownedBy = (batch: Batch, personId: string | null, name: string) => {
  const live = livePerson(batch, personId)
  return live === null
    ? { owner_kind: "Unattached", owner_contact_id: null, owner_name: null, person_id: null }
    : { owner_kind: "Person", owner_contact_id: live, owner_name: name, person_id: live }
}

/**
 * Messages from the split on leave the note, with the directives cut from them and their
 * confirmations. The new note is recorded at the split's position, as every note is at its own.
 */
const split = (batch: Batch, event: StoredOf<"NoteSplit">, position: number) => {
  const note = batch.get("notes", event.noteId)
  if (!note || batch.has("notes", event.newNoteId)) return
  batch.put("notes", { ...note, note_id: event.newNoteId, position })
  const moved = new Set<unknown>(event.sources.map((s) => s.messageId))
  for (const source of batch.where("note_sources", "note_id", event.noteId)) {
    if (!moved.has(source.message_id)) continue
    batch.update("note_sources", source, { note_id: event.newNoteId })
    const confirmation = batch.get("confirmations", source.message_id)
    if (confirmation) batch.update("confirmations", confirmation, { note_id: event.newNoteId })
  }
  const directives = batch.where("note_directives", "note_id", event.noteId).sort((a, b) => Number(a.ordinal) - Number(b.ordinal))
  const [leaving, staying] = [directives.filter((d) => moved.has(d.message_id)), directives.filter((d) => !moved.has(d.message_id))]
  for (const directive of leaving) batch.delete("note_directives", directive)
  leaving.forEach((d, ordinal) => batch.put("note_directives", { ...d, note_id: event.newNoteId, ordinal }))
  // The staying directives keep their order, numbered from 0 again.
  for (const directive of staying) batch.delete("note_directives", directive)
  staying.forEach((d, ordinal) => batch.put("note_directives", { ...d, ordinal }))
  deriveBody(batch, event.noteId)
  deriveBody(batch, event.newNoteId)
}

export const NoteCuration: Projection<CurationEvent["_tag"]> = {
  name: "note curation",
  canHandle: ["NoteMoved", "NoteSplit", "NoteDiscarded", "NoteRestored", "PersonRenamed", "PeopleMerged", "PeopleUnmerged"],
  wants(event, _position, keys) {
    switch (event._tag) {
      case "NoteMoved":
        if (event.personId !== null) keys.add("people", "person_id", event.personId)
        return keys.add("notes", "note_id", event.noteId)
      case "NoteSplit":
        keys.add("notes", "note_id", event.newNoteId)
        for (const source of event.sources) {
          keys.add("note_sources", "message_id", source.messageId)
          keys.add("confirmations", "message_id", source.messageId)
        }
        return keys.add("note_sources", "note_id", event.noteId)
      case "NoteDiscarded":
      case "NoteRestored":
        return keys.add("notes", "note_id", event.noteId)
      case "PersonRenamed":
        return keys.add("notes", "person_id", event.personId)
      case "PeopleMerged":
        keys.add("people", "person_id", event.into)
        return keys.add("notes", "person_id", event.from)
      case "PeopleUnmerged":
        keys.add("people", "person_id", event.personId)
        keys.add("people", "merged_into", event.from)
        return keys.add("notes", "person_id", event.from)
      default:
        return absurd(event)
    }
  },
  evolve(batch, { event, position }) {
    switch (event._tag) {
      case "NoteMoved": {
        const note = batch.get("notes", event.noteId)
        if (note) batch.update("notes", note, { ...ownedBy(batch, event.personId, event.owner._tag === "Person" ? event.owner.name : ""), filed_person_id: event.personId })
        return
      }
      case "NoteSplit":
        return split(batch, event, position)
      case "NoteDiscarded":
      case "NoteRestored": {
        const note = batch.get("notes", event.noteId)
        const at = event._tag === "NoteDiscarded" ? event.discardedAt : null
        if (note) batch.update("notes", note, { discarded_at: at })
        return
      }
      case "PersonRenamed":
        for (const note of batch.where("notes", "person_id", event.personId)) batch.update("notes", note, { owner_name: event.name })
        return
      case "PeopleMerged":
        for (const note of batch.where("notes", "person_id", event.from)) {
          batch.update("notes", note, ownedBy(batch, event.into, String(batch.get("people", event.into)?.name ?? "")))
        }
        return
      case "PeopleUnmerged": {
        // People ran first: the person and whoever is still merged into them lead to them again.
        const name = String(batch.get("people", event.personId)?.name ?? "")
        for (const note of batch.where("notes", "person_id", event.from)) {
          const filed = note.filed_person_id
          if (filed !== null && livePerson(batch, filed) === event.personId) batch.update("notes", note, ownedBy(batch, event.personId, name))
        }
        return
      }
      default:
        return absurd(event)
    }
  }
}
