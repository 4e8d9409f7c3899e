/**
 * What the API of one instance says of every message a forgetting check sent: each kept message
 * filed in exactly one note and found once by search; each forgotten one `Erased` in its session's
 * accounting and its marker in no note, search hit or accounting. Problems are named by marker.
 */
import * as S from "./Server.js"

/** One message the check sent: its marker (a word no other message holds) and how to deliver it again. */
export interface Sent {
  readonly marker: string
  readonly user: number
  readonly updateId: number
  readonly text: string
  readonly messageId: string
}

export interface Problems {
  readonly lost: Array<string>
  readonly doubled: Array<string>
  readonly leaked: Array<string>
  readonly unerased: Array<string>
}

export const noProblems = (): Problems => ({ lost: [], doubled: [], leaked: [], unerased: [] })

interface Accounting {
  readonly status: string
  readonly messages: ReadonlyArray<{ readonly messageId: string; readonly dispositions: ReadonlyArray<{ readonly _tag: string; readonly noteId?: string }> }>
}

const get = async <A>(url: string, path: string): Promise<A> => {
  const { body, status } = await S.api(url, path)
  if (status !== 200) throw new Error(`GET ${path} answered ${status}: ${JSON.stringify(body).slice(0, 500)}`)
  return body as A
}

export const accounting = (url: string, sessionId: string) => get<Accounting>(url, `/api/sessions/${encodeURIComponent(sessionId)}/accounting`)

/** The messages search finds holding `marker`, with the note each is in. */
export const search = async (url: string, marker: string) =>
  (await get<{ hits: ReadonlyArray<{ messageId: string; noteId: string | null; text: string }> }>(url, `/api/search?q=${marker}&limit=50`)).hits

export const note = (url: string, noteId: string) =>
  get<{ body: string; sources: ReadonlyArray<{ messageId: string }> }>(url, `/api/notes/${encodeURIComponent(noteId)}`)

/** Add to `problems` what instance `name` at `url` shows of `sessions` (each session's messages), `forgotten` holding the erased ids. */
export const audit = async (
  name: string,
  url: string,
  sessions: ReadonlyMap<string, ReadonlyArray<Sent>>,
  forgotten: ReadonlySet<string>,
  problems: Problems
) => {
  const noteIds = new Set<string>()
  const all = [...sessions.values()].flat()
  for (const [sessionId, sent] of sessions) {
    const books = await accounting(url, sessionId)
    const text = JSON.stringify(books)
    for (const m of sent) {
      const tags = books.messages.find((b) => b.messageId === m.messageId)?.dispositions ?? []
      for (const d of tags) if (d._tag === "InNote" && d.noteId !== undefined) noteIds.add(d.noteId)
      if (forgotten.has(m.messageId)) {
        if (JSON.stringify(tags.map((d) => d._tag)) !== JSON.stringify(["Erased"])) problems.unerased.push(`${m.marker} (${name}'s accounting: ${JSON.stringify(tags)})`)
        if (text.includes(m.marker)) problems.leaked.push(`${m.marker} (${name}'s accounting)`)
        continue
      }
      const filed = tags.filter((d) => d._tag === "InNote").length
      if (filed === 0) problems.lost.push(`${m.marker} (${name}'s accounting: ${JSON.stringify(tags)})`)
      if (filed > 1) problems.doubled.push(`${m.marker} (${name}'s accounting: in ${filed} notes)`)
    }
  }
  const bodies = await Promise.all([...noteIds].map(async (id) => (await note(url, id)).body))
  for (const m of all) {
    const inNotes = bodies.filter((body) => body.includes(m.marker)).length
    const hits = await search(url, m.marker)
    if (forgotten.has(m.messageId)) {
      if (inNotes > 0) problems.leaked.push(`${m.marker} (${inNotes} of ${name}'s notes)`)
      if (hits.length > 0) problems.leaked.push(`${m.marker} (${hits.length} of ${name}'s search hits)`)
      continue
    }
    if (inNotes === 0) problems.lost.push(`${m.marker} (in none of ${name}'s notes)`)
    if (inNotes > 1) problems.doubled.push(`${m.marker} (in ${inNotes} of ${name}'s notes)`)
    const found = hits.filter((h) => h.messageId === m.messageId && h.noteId !== null).length
    if (found !== 1 || hits.length !== 1) problems.lost.push(`${m.marker} (${name}'s search: ${JSON.stringify(hits)})`)
  }
}

/** Add what a `pg_dump` of the database holds: none of the forgotten markers, every kept one. */
export const auditDump = (dump: string, all: ReadonlyArray<Sent>, forgotten: ReadonlySet<string>, problems: Problems) => {
  for (const m of all) {
    if (forgotten.has(m.messageId) && dump.includes(m.marker)) problems.leaked.push(`${m.marker} (pg_dump)`)
    if (!forgotten.has(m.messageId) && !dump.includes(m.marker)) problems.lost.push(`${m.marker} (not in the pg_dump)`)
  }
}

/** Throws naming the counts of messages lost, doubled, leaked and not erased, and the first of each, when there are any. */
export const expectNone = (when: string, problems: Problems) => {
  const count = (list: ReadonlyArray<string>) => new Set(list.map((p) => p.split(" ")[0])).size
  const kinds = ["lost", "doubled", "leaked", "unerased"] as const
  if (kinds.every((k) => problems[k].length === 0)) return
  const counts = kinds.map((k) => `${count(problems[k])} ${k}`).join(", ")
  const first = kinds.flatMap((k) => problems[k].slice(0, 4).map((p) => `${k}: ${p}`)).join("; ")
  throw new Error(`${when}: ${counts} — ${first}`)
}
