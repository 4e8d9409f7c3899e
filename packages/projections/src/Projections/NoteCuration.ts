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
import { type Step, stepwise } from "./Projection.js"
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

export const NoteCuration = stepwise<CurationEvent["_tag"]>(
  "note curation",
  ["NoteMoved", "NoteSplit", "NoteDiscarded", "NoteRestored", "PersonRenamed", "PeopleMerged", "PeopleUnmerged"],
  (event, position): Step => {
    switch (event._tag) {
      case "NoteMoved":
        return {
          wants: (keys) => {
            if (event.personId !== null) keys.add("people", "person_id", event.personId)
            keys.add("notes", "note_id", event.noteId)
          },
          evolve: (batch) => {
            const note = batch.get("notes", event.noteId)
            if (note) batch.update("notes", note, { ...ownedBy(batch, event.personId, event.owner._tag === "Person" ? event.owner.name : ""), filed_person_id: event.personId })
          }
        }
      case "NoteSplit":
        return {
          wants: (keys) => {
            keys.add("notes", "note_id", event.newNoteId)
            for (const source of event.sources) {
              keys.add("note_sources", "message_id", source.messageId)
              keys.add("confirmations", "message_id", source.messageId)
            }
            keys.add("note_sources", "note_id", event.noteId)
          },
          evolve: (batch) => split(batch, event, position)
        }
      case "NoteDiscarded":
      case "NoteRestored":
        return {
          wants: (keys) => keys.add("notes", "note_id", event.noteId),
          evolve: (batch) => {
            const note = batch.get("notes", event.noteId)
            const at = event._tag === "NoteDiscarded" ? event.discardedAt : null
            if (note) batch.update("notes", note, { discarded_at: at })
          }
        }
      case "PersonRenamed":
        return {
          wants: (keys) => keys.add("notes", "person_id", event.personId),
          evolve: (batch) => {
            for (const note of batch.where("notes", "person_id", event.personId)) batch.update("notes", note, { owner_name: event.name })
          }
        }
      case "PeopleMerged":
        return {
          wants: (keys) => {
            keys.add("people", "person_id", event.into)
            keys.add("notes", "person_id", event.from)
          },
          evolve: (batch) => {
            for (const note of batch.where("notes", "person_id", event.from)) {
              batch.update("notes", note, ownedBy(batch, event.into, String(batch.get("people", event.into)?.name ?? "")))
            }
          }
        }
      case "PeopleUnmerged":
        return {
          wants: (keys) => {
            keys.add("people", "person_id", event.personId)
            keys.add("people", "merged_into", event.from)
            keys.add("notes", "person_id", event.from)
          },
          evolve: (batch) => {
            // People ran first: the person and whoever is still merged into them lead to them again.
            const name = String(batch.get("people", event.personId)?.name ?? "")
            for (const note of batch.where("notes", "person_id", event.from)) {
              const filed = note.filed_person_id
              if (filed !== null && livePerson(batch, filed) === event.personId) batch.update("notes", note, ownedBy(batch, event.personId, name))
            }
          }
        }
      default:
        return absurd(event)
    }
  }
)
