/** A long mixed history over many sessions, interleaved, touching every read-model table. */
import type { Event } from "@verbatim/domain/Events"
import { attachment } from "@verbatim/domain/Attachment"
import { ReplyId } from "@verbatim/domain/Ids"
import * as G from "@verbatim/testkit/Given"
import * as C from "@verbatim/testkit/GivenCuration"
import * as A from "@verbatim/testkit/GivenAsks"
import * as F from "@verbatim/testkit/GivenForget"
import * as R from "@verbatim/testkit/GivenReminders"

/** Rounds of `[stream, events]` appends; sessions advance one step per round, so streams interleave. */
export const scenario = (sessions: number): Array<readonly [string, ReadonlyArray<Event>]> => {
  const steps = (i: number): Array<readonly [string, ReadonlyArray<Event>]> => {
    const s = `s${i}`
    const stream = G.sessionStream(s)
    const person = { personId: `person-${i % 5}`, name: `Person ${i % 5}` }
    const planId = `plan-${s}`
    return [
      [stream, [G.sessionOpened(s), G.messageReceived(s, 1, `Met ${person.name} at the café.`)]],
      [stream, [
        G.messageReceived(s, 2, `She moves to Lisbon in ${i % 12 + 1} weeks, remind me tomorrow`),
        G.messageReceived(s, 3, "I should read more about urban gardens 🌱"),
        G.messageReceived(s, 4, "Her brother might be the one who called?"),
        G.messageReceived(s, 5, "thanks bot"),
        G.messageReceived(s, 6, i % 2 === 0 ? "" : "From the clinic", {
          kind: i % 2 === 0 ? "media-without-text" : "caption",
          attachments: [attachment("voice", `voice-${s}`, { duration: 42 }), attachment("sticker", `sticker-${s}`)]
        })
      ]],
      [`person-${i}`, [G.personAdded(`person-${i}`, `Person ${i}`)]],
      [stream, [G.sessionClosed(s, 6), G.planProduced(s, planId, 5)]],
      [stream, [
        G.noteRecorded(s, `note-${s}-a`, [1, 2], { planId, person, directives: [[2, ", remind me tomorrow"]], mergedFrom: 2 }),
        G.noteRecorded(s, `note-${s}-b`, [3, 6], { planId }),
        G.questionParked(s, `q-${s}`, [4], planId),
        G.instructionRecorded(s, 5, "thanks bot", "message", planId),
        G.planApplied(s, planId),
        G.replyQueued(`reply-${s}`, `Filed 2 notes for ${s}`)
      ]],
      // A promoted replay: the new plan cuts no directive, files 3 and 4 together, and keeps 5 as an instruction.
      ...(i % 4 === 1
        ? [[stream, [
          G.planProduced(s, `${planId}-v2`, 5, [planId]),
          G.noteRecorded(s, `note-${s}-v2-a`, [1, 2], { planId: `${planId}-v2`, person }),
          G.noteRecorded(s, `note-${s}-v2-b`, [3, 4], { planId: `${planId}-v2`, mergedFrom: 2 }),
          G.instructionRecorded(s, 5, "thanks bot", "message", `${planId}-v2`),
          G.planApplied(s, `${planId}-v2`)
        ]] as const]
        : []),
      ...(i % 3 === 0 ? [[stream, [G.messageEdited(s, 2, `She moves to Porto, remind me tomorrow`, 700)]] as const] : []),
      ...(i % 3 === 1 ? [[stream, [G.messageEdited(s, 2, `She moves to Porto soon`, 700)]] as const] : []),
      ...(i % 2 === 0
        ? [[stream, [
          G.questionAnswered(s, `q-${s}`),
          G.noteRecorded(s, `note-${s}-c`, [4], { planId: null, questionId: `q-${s}`, person })
        ]] as const]
        : []),
      [`reply-${s}`, [
        i % 4 === 3
          ? { _tag: "ReplyFailed", replyId: ReplyId.make(`reply-${s}`), attempt: 3, detail: "429", final: true }
          : { _tag: "ReplySent", replyId: ReplyId.make(`reply-${s}`), providerMessageId: `out-${i}`, sentAt: G.at(800) }
      ]],
      // The reminder its directive asked for: delivered, then done, snoozed or cancelled, or still waiting.
      [R.stream(`reminder-${s}`), [R.reminderScheduled(`reminder-${s}`, s, 2, "remind me tomorrow", { start: 2, noteId: `note-${s}-a`, dueIn: 900 })]],
      ...(i % 4 !== 0 ? [[R.stream(`reminder-${s}`), [R.reminderDelivered(`reminder-${s}`, 900 + i, i % 8 === 1)]] as const] : []),
      ...(i % 4 === 1 ? [[R.stream(`reminder-${s}`), [R.reminderDone(`reminder-${s}`, 1_000)]] as const] : []),
      ...(i % 4 === 2 ? [[R.stream(`reminder-${s}`), [R.reminderSnoozed(`reminder-${s}`, 1_000, 4_600)]] as const] : []),
      ...(i % 4 === 3 ? [[R.stream(`reminder-${s}`), [R.reminderCancelled(`reminder-${s}`, 1_000)]] as const] : []),
      // A reminder whose time was asked: still waiting, or answered with a time, or with no reminder.
      ...(i % 3 === 0 ? [[R.stream(`asked-${s}`), [R.reminderTimeAsked(`asked-${s}`, s, 2, "ping me", { seconds: 900 })]] as const] : []),
      ...(i % 9 === 3 ? [[R.stream(`asked-${s}`), [R.reminderCancelled(`asked-${s}`, 1_000)]] as const] : []),
      ...(i % 9 === 6 ? [[R.stream(`asked-${s}`), [R.reminderCancelled(`asked-${s}`, 1_000, "replanned")]] as const] : []),
      ...(i % 5 === 3 ? [[R.zoneStream, [R.timeZoneSet(i % 2 === 0 ? "Europe/Lisbon" : "America/New_York", 1_100 + i)]] as const] : []),
      // A question asked of the notes: answered (its reply queued, or still owed), failed, or still posed.
      [A.stream(`ask-${s}`), [A.askPosed(`ask-${s}`, `what about ${person.name}?`, 1_200)]],
      ...(i % 3 === 0 ? [[A.stream(`ask-${s}`), [A.askAnswered(`ask-${s}`, `${s}/1`, "Met", 1_210)]] as const] : []),
      ...(i % 6 === 3 ? [[A.stream(`ask-${s}`), [A.askQuoteConfirmed(`ask-${s}`, `${s}/1`, 0, 3, 1_220)]] as const] : []),
      ...(i % 3 === 1 ? [[A.stream(`ask-${s}`), [A.askFailed(`ask-${s}`, 1_210)]] as const] : []),
      ...(i % 6 === 0 ? [[`reply-ask:ask-${s}`, [A.askReplied(`ask-${s}`, "“Met”")]] as const] : []),
      // The voice note: fetched, then transcribed (a second model too), or failing to be.
      [stream, [G.mediaFetched(s, 6, 0, `sha-${s}`, 610)]],
      ...(i % 3 === 0 ? [[stream, [G.mediaTranscribed(s, 6, 0, `She starts at the clinic in ${i} days.`, 620)]] as const] : []),
      ...(i % 6 === 0 ? [[stream, [G.mediaTranscribed(s, 6, 0, `She starts at the clinic in ${i} days!`, 630, "large-v3")]] as const] : []),
      ...(i % 3 === 1 ? [[stream, [G.mediaFailed(s, 6, 0, "the transcriber is unavailable (HTTP 503)", { permanent: false })]] as const] : []),
      ...(i % 3 === 2 ? [[stream, [G.mediaFailed(s, 6, 0, "no transcriber is configured")]] as const] : []),
      ...(i % 7 === 0 ? [[stream, [G.messageEdited(s, 6, "From the clinic, Monday", 960)]] as const] : []),
      ...(i % 5 === 0 ? [[stream, [G.messageEdited(s, 1, `Met ${person.name} at the bakery.`, 900)]] as const] : []),
      ...(i % 4 === 2 ? [[stream, [G.messageEdited(s, 5, "thanks, bot", 950)]] as const] : []),
      // Curation: a note split (its directive goes with its message), moved, discarded and restored; people renamed, merged and unmerged.
      ...(i % 4 !== 1 && i % 3 === 0 ? [[stream, [C.noteSplit(s, `note-${s}-a`, `note-${s}-a2`, [2])]] as const] : []),
      ...(i % 4 !== 1 && i % 3 === 1 ? [[stream, [C.noteMoved(s, `note-${s}-b`, { personId: `person-${(i + 1) % 5}`, name: "Moved" })]] as const] : []),
      ...(i % 4 !== 1 && i % 5 === 2 ? [[stream, [C.noteDiscarded(s, `note-${s}-b`)]] as const] : []),
      ...(i % 4 !== 1 && i % 10 === 2 ? [[stream, [C.noteRestored(s, `note-${s}-b`)]] as const] : []),
      // Forgettings: of the voice note (its note keeps message 3 and says it lost 6), of the note an
      // answer made (it goes), and of a person no note is filed under.
      ...(i % 8 === 4 ? [[stream, [F.messagesErased(s, [6], [`note-${s}-b`])]] as const] : []),
      ...(i % 8 === 0 ? [[stream, [F.messagesErased(s, [4], [`note-${s}-c`])]] as const] : []),
      ...(i === 13 ? [[C.peopleStream, [F.personForgotten("person-13")]] as const] : []),
      ...(i === 7 ? [[C.peopleStream, [C.personRenamed("person-0", "Person Zero"), C.peopleMerged("person-3", "person-4")]] as const] : []),
      ...(i === 11 ? [[C.peopleStream, [C.peopleMerged("person-4", "person-2")]] as const] : []),
      // The merge undone: person-4 is theirs again with their notes (and person-3's, when merged into them first).
      ...(i === 11 ? [[stream, [C.noteMoved(s, `note-${s}-a`, { personId: "person-2", name: "Moved" })]] as const] : []),
      ...(i === 11 ? [[C.peopleStream, [C.peopleUnmerged("person-4", "person-2")]] as const] : [])
    ]
  }
  const all = Array.from({ length: sessions }, (_, i) => steps(i))
  const rounds = Math.max(...all.map((s) => s.length))
  const out: Array<readonly [string, ReadonlyArray<Event>]> = []
  for (let r = 0; r < rounds; r++) for (const s of all) if (s[r] !== undefined) out.push(s[r]!)
  return out
}
