/** The curation forms without a browser: a name the store cannot keep is refused on the page, and nothing is recorded. */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { aliceUpdate, apiToken, closeIdle, eventLog, Harness, layer, telegram } from "../harness.js"

const planned = layer([planStep({ ...emptyPlan, people: [{ contactId: null, name: "Ana", notes: [{ sourceItemSeqs: [1], directives: [] }] }] })])

describe("curation forms", () => {
  it.effect("a new person's name or a rename holding U+0000 goes back to the page saying why; the log is unchanged", () =>
    Effect.gen(function*() {
      yield* telegram(aliceUpdate(1, { text: "Ana moved to Porto." }))
      yield* closeIdle
      const { baseUrl } = yield* Harness
      const before = yield* eventLog
      const replies = yield* Effect.promise(async () => {
        const signIn = await fetch(`${baseUrl}/signin`, { method: "POST", body: new URLSearchParams({ token: apiToken }), redirect: "manual" })
        const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!
        const page = await (await fetch(`${baseUrl}/notes/note_1`, { headers: { cookie } })).text()
        const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? ""
        const post = async (path: string, fields: Record<string, string>) => {
          const reply = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { cookie }, body: new URLSearchParams({ csrf, ...fields }), redirect: "manual" })
          return [reply.status, decodeURIComponent(reply.headers.get("location") ?? "")]
        }
        return [
          await post("/notes/note_1/move", { to: "new", name: "Nul\u0000name" }),
          await post("/notes/note_1/move", { to: "new", name: "   " }),
          await post("/people/person_1/rename", { name: "A\u0000na" })
        ]
      })
      expect(replies).toEqual([
        [303, "/notes/note_1?notice=Nothing changed: the name contains U+0000 (NUL), which is not text."],
        [303, "/notes/note_1?notice=Nothing changed: a person's name must not be empty."],
        [303, "/people/person_1?notice=Nothing changed: the name contains U+0000 (NUL), which is not text."]
      ])
      expect(yield* eventLog).toEqual(before)
    }).pipe(Effect.provide(planned)))
})
