/**
 * A session whose planning kills the server every time (here: `kill -9` while the model call is
 * out) is tried three times and then parked: after the third restart its messages wait as a
 * question, the model is not called for it again, and another sender's session plans.
 */
import { FakeAnthropic } from "@verbatim/testkit"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Options } from "./Checks.js"
import { run, startFakes } from "./Fakes.js"
import * as S from "./Server.js"

const [crashing, other] = [100_000_001, 100_000_002]
const env = {
  VERBATIM_ALLOWED_SENDERS: `telegram:${crashing},telegram:${other}`,
  VERBATIM_SESSION_IDLE_SECONDS: "3600",
  // A lease left by a dead holder lapses within a second, so the restarts come quickly.
  VERBATIM_LEASE_TTL_SECONDS: "1"
}

interface Accounting {
  readonly status: string
  readonly messages: ReadonlyArray<{ readonly dispositions: ReadonlyArray<{ readonly _tag: string }> }>
}

const placesOf = async (url: string, from: number) => {
  const session = (await S.allEvents(url)).find((e) => e.event._tag === "SessionOpened" && e.event["user"] === `telegram:${from}`)
  if (session === undefined) return null
  const view = (await S.api(url, `/api/sessions/${encodeURIComponent(session.event["sessionId"] as string)}/accounting`)).body as Accounting
  return view.messages.map((m) => m.dispositions.map((d) => d._tag).join("+")).join(",")
}

export const crashLoop = (_: Options) =>
  (async () => {
    const fakes = await startFakes()
    const dir = mkdtempSync(join(tmpdir(), "verbatim-reliability-"))
    const requests = () => run(fakes.anthropic.requests).then((r) => r.length)
    const own = { people: [], unattached: [{ sourceItemSeqs: [1, 2], directives: [] }], unclear: [], botMessages: [] }
    // Three model calls that never answer (the server is killed during each), then one that does.
    await run(fakes.anthropic.script(...[1, 2, 3].map(() => FakeAnthropic.FakeReply.hang()), FakeAnthropic.FakeReply.toolUse(own)))
    const start = () => S.start({ ...env, ...fakes.env, VERBATIM_DATA_DIR: dir })
    let server = await start()
    try {
      await S.post(server.url, 1, crashing, "A forwarded thread that is too much for the planner.")
      await S.post(server.url, 2, crashing, "Its second half.")
      await S.post(server.url, 3, crashing, "/done")
      for (const attempt of [1, 2, 3]) {
        await S.until(`model call ${attempt}`, async () => (await requests()) >= attempt)
        server.child.kill("SIGKILL")
        await S.whenExited(server.child)
        server = await start()
      }
      await S.until("the session parked", async () => (await placesOf(server.url, crashing)) === "InQuestion,InQuestion")
      await S.post(server.url, 4, other, "Ana moved to Porto.")
      await S.post(server.url, 5, other, "She starts in May.")
      await S.post(server.url, 6, other, "/done")
      await S.until("the other session planned", async () => (await placesOf(server.url, other)) === "InNote,InNote")
      const failed = (await S.allEvents(server.url)).filter((e) => e.event._tag === "PlanFailed").map((e) => e.event["reason"])
      const calls = await requests()
      if (failed.join() !== "crashed" || calls !== 4) {
        throw new Error(`expected one PlanFailed (crashed) and 4 model calls, got ${JSON.stringify(failed)} and ${calls}`)
      }
      const metrics = await (await fetch(`${server.url}/metrics`)).text()
      if (!/^verbatim_plans_total\{outcome="crashed"\} 1$/m.test(metrics)) throw new Error("/metrics does not count the crashed plan")
      return "3 runs killed mid-call, then parked as a question with no 4th call; another session planned meanwhile"
    } finally {
      await S.stop(server)
      await fakes.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })()
