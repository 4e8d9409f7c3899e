/**
 * The reads' plans on both backends: no read walks a large table end to end, but those named
 * here, each with why. PostgreSQL, with sequential scans switched off, finds an index for every
 * read; SQLite walks the partial indexes below, each holding only the rows its read wants.
 */
import { describe } from "@effect/vitest"
import * as Database from "@verbatim/testkit/Database"
import { queryPlansConformance } from "./QueryPlansConformance.js"

describe("query plans on SQLite", () => {
  queryPlansConformance(() => Database.sqlite(), {
    // The queues, oldest or soonest first, through indexes of the waiting rows only.
    "AskBook.owed": ["asks via asks_owed"],
    "Jobs.mediaWork": ["message_media via message_media_pending"],
    "Jobs.queuedReplies": ["replies via replies_queued"],
    "ReminderBook.nextDue": ["reminders via reminders_due"],
    "ReminderBook.owed": ["plans via plans_reminders_owed"],
    "ReminderBook.released": ["reminders via reminders_held"],
    "ReminderBook.withoutTheirWords": ["reminders via reminders_live"],
    "SessionLookups.idleSessions": ["sessions via sessions_open"],
    // Every user's entries in the index of notes by user, once: only an export of everyone asks.
    // (The export's other reads, `notebookPages`, `subjectNoteIds` and `subjectNotes`, walk nothing:
    // each keyset page searches `notes_user` or `notes_person` from a position down.)
    "Notebook.notebookUsers": ["notes via notes_user"],
    "Jobs.unplannedSessions": ["sessions via sessions_unplanned"],
    "Jobs.queueDepths": ["replies via replies_queued", "sessions via sessions_open", "sessions via sessions_unplanned"]
  })
})

describe("query plans on PostgreSQL", () => {
  queryPlansConformance(() => Database.pg, {})
})
