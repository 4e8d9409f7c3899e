/**
 * A user's page of what the operator read of their data: which `VERBATIM_OPERATOR_READS` is in
 * force (so they know what the operator can read), then every read recorded under `audited`
 * (`OperatorRead` on their stream), newest first: when, what, and the request that read it.
 */
import { operatorReadsStream } from "@verbatim/domain/Streams"
import type { ReadKind } from "@verbatim/domain/OperatorReads/Events"
import type { OperatorReadsMode } from "@verbatim/domain/OperatorReads/Mode"
import type { Event } from "@verbatim/domain/Events"
import { EventStore } from "@verbatim/projections/EventStore"
import { Effect, Option } from "effect"
import { OperatorReads } from "../OperatorReads.js"
import { type Html, html } from "./Html.js"
import { timeAt } from "./Time.js"
import { signedIn } from "./Viewer.js"

/** The newest reads listed. */
const shownReads = 200

type Read = Extract<Event, { readonly _tag: "OperatorRead" }>

const modes: { readonly [M in OperatorReadsMode]: string } = {
  none: "The operator does not read your messages or notes here: they see how many you have, never their text (VERBATIM_OPERATOR_READS=none).",
  audited: "The operator can read your messages and notes here, and every time they do it is listed below (VERBATIM_OPERATOR_READS=audited).",
  all: "The operator can read all your messages and notes here, and their reads are not recorded (VERBATIM_OPERATOR_READS=all)."
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** What a read showed, in words, from its kind and how many ids it names. */
const whats: { readonly [K in ReadKind]: (ids: number) => string } = {
  people: (n) => `your people list (${count(n, "person", "people")})`,
  person: () => "a person's notes",
  note: (n) => (n === 1 ? "a note" : `${n} notes`),
  "own-notes": (n) => `your own notes (${count(n, "note", "notes")})`,
  questions: (n) => `your questions (${count(n, "question", "questions")})`,
  session: () => "a session's messages",
  search: (n) => `search results (${count(n, "message", "messages")})`,
  asks: (n) => `your questions to Ask (${n})`,
  ask: () => "an answer to Ask",
  reminders: (n) => `your reminders (${n})`,
  media: () => "a file you sent",
  replay: () => "a replay report of your sessions",
  "subject-access": () => "a copy of everything filed about a person"
}

/** One recorded read: "The operator read your notes on DATE: what (the request)", the date in `zone`. */
export const readLine = (read: Read, zone: string): Html =>
  html`The operator read your notes on ${timeAt(read.readAt, zone)}: ${whats[read.kind](read.ids.length)} (${read.route})`

/** The page: the setting in words, then the reads, newest first; the operator's own page says only the setting. */
export const readsPage = (mode: OperatorReadsMode, reads: ReadonlyArray<Read> | null, zone: string): Html =>
  html`<h1>Operator reads</h1>
<p data-mode="${mode}">${reads === null ? `VERBATIM_OPERATOR_READS=${mode}. Each user's own page tells them: “${modes[mode]}”` : modes[mode]}</p>
${
    reads === null ? null : reads.length === 0
      ? html`<p class="muted">No read of yours is recorded.</p>`
      : html`<ul class="list" data-reads>${reads.map((r) => html`<li data-read>${readLine(r, zone)}</li>`)}</ul>`
  }`

/** `/reads`: the signed-in user's page of the operator's reads. */
export const readsRoute = signedIn("Operator reads", "reads", ({ subject, zone }) =>
  Effect.gen(function*() {
    const { mode } = yield* OperatorReads
    if (subject._tag === "Operator") return Option.some(readsPage(mode, null, zone))
    const recorded = yield* Effect.flatMap(EventStore, (store) => store.readStream(operatorReadsStream(subject.user)))
    const reads = recorded.flatMap(({ event }) => (event._tag === "OperatorRead" ? [event] : [])).reverse().slice(0, shownReads)
    return Option.some(readsPage(mode, reads, zone))
  }))
