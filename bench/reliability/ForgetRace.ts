/**
 * Capture racing forgetting on two instances: each user's sessions are posted through both
 * instances' webhooks, a slow fake model per instance keeps plans in flight, and forgettings go
 * through the API of the instance whose model did not just get a request. Users take turns at what
 * is forgotten: (0) a message whose session's plan is at the model, (1) a message of a session
 * still open, (2) a note once planned, (3) a person once all their sessions are planned.
 */
import { FakeAnthropic } from "@verbatim/testkit"
import { type Sent, note, search } from "./ForgetAudit.js"
import { type Fakes, run } from "./Fakes.js"
import * as S from "./Server.js"

/** Every session: two messages filed under Nadia, the third alone. */
export const plan = FakeAnthropic.FakeReply.toolUse({
  people: [{ contactId: null, name: "Nadia", notes: [{ sourceItemSeqs: [1, 2], directives: [] }] }],
  unattached: [{ sourceItemSeqs: [3], directives: [] }],
  unclear: [],
  botMessages: []
})

export interface Forgot {
  readonly kind: "message in flight" | "message of an open session" | "note" | "person"
  /** Model requests (of the other instance) still unanswered when it was asked. */
  readonly inFlight: number
  readonly erased: ReadonlyArray<string>
}

export interface Race {
  readonly servers: ReadonlyArray<S.Running>
  readonly fakes: ReadonlyArray<Fakes>
  /** The model's answer time. */
  readonly delayMs: number
  readonly sent: Array<Sent>
  readonly forgot: Array<Forgot>
  /** Each model request in the order seen: when, at which instance's model, and its body as JSON. */
  readonly seen: Array<{ readonly at: number; readonly instance: number; readonly body: string }>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A word only message `m` of session `s` of user `u` holds (fixed width: no marker is inside another). */
export const markerOf = (u: number, s: number, m: number) => `vzq${String(u).padStart(2, "0")}${String(s).padStart(2, "0")}${m}x`

const unanswered = (race: Race, instance: number) => race.seen.filter((r) => r.instance === instance && Date.now() - r.at < race.delayMs).length

/** The instance whose model did not get the latest request: forgetting through it races the other's plan. */
const quieter = (race: Race) => 1 - (race.seen.at(-1)?.instance ?? 1)

const forgetVia = async (race: Race, via: number, kind: Forgot["kind"], path: string, erased: ReadonlyArray<string>) => {
  const inFlight = unanswered(race, 1 - via)
  const { body, status } = await S.api(race.servers[via]!.url, path, "POST")
  const messages = (body as { messages?: number }).messages
  if (status !== 200 || messages !== erased.length) {
    throw new Error(`POST ${path} answered ${status} ${JSON.stringify(body)}, want 200 forgetting ${erased.length} message(s)`)
  }
  race.forgot.push({ kind, inFlight, erased })
}

/** Until `stop` says so: note each model request, and forget message 1 of the first session of users 0, 4, 8, … at the other instance once its plan is asked for. */
export const watch = async (race: Race, users: number, stop: () => boolean) => {
  const watched = new Set(Array.from({ length: users }, (_, i) => i).filter((i) => i % 4 === 0).map((i) => markerOf(i, 0, 1)))
  const counted = [0, 0]
  const pending: Array<Promise<void>> = []
  const fired = new Set<string>()
  while (!stop()) {
    for (const instance of [0, 1]) {
      const requests = await run(race.fakes[instance]!.anthropic.requests)
      for (const request of requests.slice(counted[instance])) {
        const body = JSON.stringify(request.body)
        race.seen.push({ at: Date.now(), instance, body })
        for (const m of race.sent.filter((w) => watched.has(w.marker) && body.includes(w.marker) && !fired.has(w.marker))) {
          fired.add(m.marker)
          pending.push(forgetVia(race, 1 - instance, "message in flight", `/api/messages/${m.messageId}/forget`, [m.messageId]))
        }
      }
      counted[instance] = requests.length
    }
    await sleep(25)
  }
  await Promise.all(pending)
}

/** Until `marker`'s message is filed in a note; that note's id. */
const filed = async (race: Race, marker: string) => {
  let noteId: string | null = null
  await S.until(`${marker} filed`, async () => {
    noteId = (await search(race.servers[0]!.url, marker))[0]?.noteId ?? null
    return noteId !== null
  }, 60_000)
  return noteId!
}

/** Update (and Telegram message) ids: one per post, the same on a redelivery. */
const updateOf = (i: number, s: number, m: number) => 1_000 + i * 100 + s * 10 + m

/** Post user `i`'s `sessions` sessions (after `i` × `staggerMs`), forgetting what their turn says. */
export const captureUser = async (race: Race, i: number, user: number, sessions: number, staggerMs: number) => {
  await sleep(i * staggerMs)
  const role = i % 4
  const url = (n: number) => race.servers[n % 2]!.url
  for (let s = 0; s < sessions; s++) {
    for (let m = 1; m <= 3; m++) {
      const marker = markerOf(i, s, m)
      const updateId = updateOf(i, s, m)
      const sent = { marker, user, updateId, text: `Nadia said ${marker} over lunch.`, messageId: `telegram:${user}:${updateId}` }
      race.sent.push(sent)
      await S.post(url(i + s + m), updateId, user, sent.text)
      if (role === 1 && s === 0 && m === 2) {
        await forgetVia(race, (i + s + m + 1) % 2, "message of an open session", `/api/messages/${sent.messageId}/forget`, [sent.messageId])
      }
    }
    await S.post(url(i + s), updateOf(i, s, 4), user, "/done")
    await sleep(staggerMs / 2)
  }
  if (role === 2) {
    const noteId = await filed(race, markerOf(i, 0, 1))
    const { sources } = await note(race.servers[0]!.url, noteId)
    await forgetVia(race, quieter(race), "note", `/api/notes/${noteId}/forget`, sources.map((s) => s.messageId))
  }
  if (role === 3) {
    for (let s = 0; s < sessions; s++) for (const m of [1, 3]) await filed(race, markerOf(i, s, m))
    const people = await S.api(race.servers[0]!.url, `/api/people?user=telegram:${user}`)
    const nadia = (people.body as { items: ReadonlyArray<{ id: string; name: string }> }).items.find((p) => p.name === "Nadia")
    if (nadia === undefined) throw new Error(`user ${user} has no Nadia: ${JSON.stringify(people.body)}`)
    const notes = await S.api(race.servers[0]!.url, `/api/people/${nadia.id}/notes?limit=500`)
    const erased = (notes.body as { items: ReadonlyArray<{ sources: ReadonlyArray<{ messageId: string }> }> }).items.flatMap((n) => n.sources.map((s) => s.messageId))
    await forgetVia(race, quieter(race), "person", `/api/people/${nadia.id}/forget`, erased)
  }
}
