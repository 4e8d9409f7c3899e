/** Checks across tenants and instances: one user's data never reaches another; two instances never plan twice. */
import { FakeAnthropic } from "@verbatim/testkit"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Options } from "./Checks.js"
import { freshDatabase } from "./Database.js"
import { run, startFakes } from "./Fakes.js"
import * as S from "./Server.js"

const personPlan = (name: string) =>
  FakeAnthropic.FakeReply.toolUse({
    people: [{ contactId: null, name, notes: [{ sourceItemSeqs: [1, 2], directives: [] }] }],
    unattached: [],
    unclear: [],
    botMessages: []
  })

const alice = 100_000_001
const bob = 100_000_002

/** Bob's API results and model requests never hold Alice's words, people or questions. */
export const tenantIsolation = (_: Options) =>
  (async () => {
    const fakes = await startFakes()
    const dir = mkdtempSync(join(tmpdir(), "verbatim-reliability-"))
    const server = await S.start({
      ...fakes.env,
      VERBATIM_DATA_DIR: dir,
      VERBATIM_ALLOWED_SENDERS: `telegram:${alice},telegram:${bob}`,
      VERBATIM_SESSION_IDLE_SECONDS: "3600"
    })
    try {
      const secretOfAlice = "Zoya's passcode hint is the blue heron."
      await run(fakes.anthropic.script(personPlan("Zoya"), personPlan("Yuri"), personPlan("Yuri")))
      await S.post(server.url, 1, alice, secretOfAlice)
      await S.post(server.url, 2, alice, "Zoya flies to Oslo on Tuesday.")
      await S.post(server.url, 3, alice, "/done")
      await S.until("Alice's session planned", async () =>
        (await S.allEvents(server.url)).some((e) => e.event._tag === "PlanApplied"))
      for (const round of [0, 1]) {
        await S.post(server.url, 10 + round * 3, bob, `Yuri likes chess (${round}).`)
        await S.post(server.url, 11 + round * 3, bob, "Yuri's sister is called Mila.")
        await S.post(server.url, 12 + round * 3, bob, "/done")
      }
      await S.until("Bob's sessions planned", async () =>
        (await S.allEvents(server.url)).filter((e) => e.event._tag === "PlanApplied").length === 3)
      const requests = await run(fakes.anthropic.requests)
      const bobsRequests = requests.slice(1).map((r) => JSON.stringify(r.body))
      const leaks = bobsRequests.filter((body) => body.includes("Zoya") || body.includes("heron"))
      if (leaks.length > 0) throw new Error(`Bob's model requests hold Alice's data: ${leaks[0]!.slice(0, 500)}`)
      if (!bobsRequests[1]!.includes("Yuri")) throw new Error("Bob's second request does not list his own contact Yuri")
      for (const path of ["/api/people", "/api/questions?status=open"]) {
        const { body } = await S.api(server.url, `${path}${path.includes("?") ? "&" : "?"}user=telegram:${bob}`)
        const text = JSON.stringify(body)
        if (text.includes("Zoya") || text.includes("heron")) throw new Error(`${path} for Bob holds Alice's data: ${text}`)
      }
      const { body: people } = await S.api(server.url, `/api/people?user=telegram:${bob}`)
      const names = (people as { items: ReadonlyArray<{ name: string }> }).items.map((p) => p.name)
      if (JSON.stringify(names) !== JSON.stringify(["Yuri"])) throw new Error(`Bob's people: ${JSON.stringify(names)}`)
      return `${requests.length} model requests and Bob's API results hold none of Alice's data`
    } finally {
      await S.stop(server)
      await fakes.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })()

/** Two instances on one PostgreSQL under load: no session planned twice, no note duplicated. */
export const twoInstancesOnPostgres = (options: Options, url: string) =>
  (async () => {
    const database = await freshDatabase(url)
    const fakes = await startFakes()
    const users = Array.from({ length: options.short ? 6 : 20 }, (_, i) => 100_000_100 + i)
    const env = {
      ...fakes.env,
      VERBATIM_DATABASE_URL: database.url,
      VERBATIM_ALLOWED_SENDERS: users.map((u) => `telegram:${u}`).join(","),
      VERBATIM_SESSION_IDLE_SECONDS: "3600"
    }
    await run(fakes.anthropic.script(...users.map(() => personPlan("Nadia"))))
    const a = await S.start({ ...env, VERBATIM_DATA_DIR: mkdtempSync(join(tmpdir(), "verbatim-a-")) })
    const b = await S.start({ ...env, VERBATIM_DATA_DIR: mkdtempSync(join(tmpdir(), "verbatim-b-")) })
    try {
      let id = 1
      await Promise.all(users.map(async (user, i) => {
        const [first, second] = i % 2 === 0 ? [a, b] : [b, a]
        await S.post(first.url, id++, user, "Nadia opened a bakery.")
        await S.post(second.url, id++, user, "Her sourdough sells out by nine.")
        await S.post(first.url, id++, user, "/done")
      }))
      await S.until("every session planned", async () =>
        (await S.allEvents(a.url)).filter((e) => e.event._tag === "PlanApplied").length >= users.length)
      await new Promise((resolve) => setTimeout(resolve, 2_000))
      const events = await S.allEvents(b.url)
      const count = (tag: string) => events.filter((e) => e.event._tag === tag).length
      const requests = (await run(fakes.anthropic.requests)).length
      const summary = { sessions: count("SessionClosed"), applied: count("PlanApplied"), notes: count("NoteRecorded"), requests }
      const want = { sessions: users.length, applied: users.length, notes: users.length, requests: users.length }
      if (JSON.stringify(summary) !== JSON.stringify(want)) {
        throw new Error(`two instances: got ${JSON.stringify(summary)}, want ${JSON.stringify(want)}`)
      }
      return `${users.length} sessions over two instances: each closed, planned and noted once, ${requests} model calls`
    } finally {
      await S.stop(a)
      await S.stop(b)
      await fakes.close()
      await database.drop()
    }
  })()
