/**
 * The reads' plans on both backends: no read walks a large table end to end or sorts what it
 * found, but those named here, each with why. PostgreSQL, with sequential scans and sorts
 * switched off, finds an index for every read and every order but these; SQLite walks the
 * partial indexes below, each holding only the rows its read wants.
 */
import { describe } from "@effect/vitest"
import * as Database from "@verbatim/testkit/Database"
import { queryPlansConformance } from "./QueryPlansConformance.js"

/** Sorts of what one note, message, person, session or page holds: bounded by it, not by the store. */
const boundedSorts = {
  // A page's notes' sources: at most the page's notes' messages.
  "Notebook.newestNotes": ["sort of note_sources"],
  "Notebook.notesByPerson": ["sort of note_sources"],
  "Notebook.ownNotes": ["sort of note_sources"],
  // A page's questions' messages.
  "Notebook.questions": ["sort of question_messages"],
  // One person's former names and the people merged into them.
  "Notebook.personNames": ["sort of people"],
  // One session's plans, attachments and accounting.
  "Notebook.sessionPlans": ["sort of plans"],
  "Jobs.mediaOf": ["sort of message_media"],
  // One message's reminders; the page of due reminders the subquery took by index.
  "ReminderBook.ofMessage": ["sort of reminders"],
  "ReminderBook.due": ["sort of reminders"],
  // What it returns whole: the bot's replies over an export's span; one minute's messages with the same words.
  "SessionLookups.sentReplies": ["sort of replies"],
  "SessionLookups.sentMessages": ["sort of messages"],
  // The export's: a user's people in the order they were added, once a user; a page of a
  // subject's notes the keyset subquery took in order from an index, and their sources; the
  // whole notebook (tests) built from those.
  "Notebook.notebookPages": ["sort of people"],
  "Notebook.subjectNotes": ["sort of notes", "sort of note_sources"],
  "Notebook.notebook": ["sort of people", "sort of notes", "sort of note_sources"]
}

describe("query plans on SQLite", () => {
  queryPlansConformance(() => Database.sqlite(), {
    ...boundedSorts,
    // The queues, oldest or soonest first, through indexes of the waiting rows only.
    "AskBook.owed": ["asks via asks_owed"],
    "Jobs.mediaWork": ["message_media via message_media_pending"],
    "Jobs.queuedReplies": ["replies via replies_queued"],
    "ReminderBook.nextDue": ["reminders via reminders_due"],
    "ReminderBook.owed": ["plans via plans_reminders_owed"],
    // Held reminders whose user has come back: the held ones are few, and sorted once found.
    "ReminderBook.released": ["reminders via reminders_held", "sort of reminders"],
    "ReminderBook.withoutTheirWords": ["reminders via reminders_live"],
    "SessionLookups.idleSessions": ["sessions via sessions_open"],
    // Everyone's people (the operator's list), the most active first: the index in that order, read to the page's end.
    "Notebook.peopleByActivity": ["people via people_active"],
    // Every user's entries in the index of notes by user, once: only an export of everyone asks.
    // (The export's other reads, `notebookPages`, `subjectNoteIds` and `subjectNotes`, walk nothing:
    // each keyset page searches `notes_user` or `notes_person_live` from a position down.)
    "Notebook.notebookUsers": ["notes via notes_user"],
    "Jobs.unplannedSessions": ["sessions via sessions_unplanned"],
    "Jobs.queueDepths": ["replies via replies_queued", "sessions via sessions_open", "sessions via sessions_unplanned_user"],
    // Everyone's messages awaiting a plan, for the operator's banner: the unplanned sessions, until enough are counted.
    "Jobs.awaitingPlan": ["sessions via sessions_unplanned_user"],
    // One user's sessions whose planning failed.
    "Jobs.failedSessions": ["sort of sessions"],
    // One session's sources, questions and plans (PostgreSQL reads the first two in order).
    "Notebook.sessionAccounting": ["sort of note_sources", "sort of question_messages", "sort of plans"]
  })
})

describe("query plans on PostgreSQL", () => {
  queryPlansConformance(() => Database.pg, {
    ...boundedSorts,
    "ReminderBook.released": ["sort of reminders"],
    "Notebook.sessionAccounting": ["sort of plans"],
    // A subject's page of notes comes in order from the keyset subquery's index.
    "Notebook.subjectNotes": ["sort of note_sources"],
    "Notebook.notebook": ["sort of people", "sort of note_sources"]
  })
})
