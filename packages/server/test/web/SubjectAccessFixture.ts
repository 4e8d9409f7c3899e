/**
 * Alice's notes for the subject-access tests: Ana Souza and Annie filed by one plan from a
 * session holding an edited message, an instruction cut (its reminder taken) and a voice note,
 * and a message of Markdown's own marks filed under Ana by Alice's answer to a question; then
 * Annie merged into Ana, Ana renamed Ana Lima, her first note split before the voice note
 * and her second (`note_3`) discarded. The ids are the test id generator's.
 */
import { expect } from "@effect/vitest"
import { NoteId, PersonId, QuestionId, UserId } from "@verbatim/domain/Ids"
import { emptyPlan, type Plan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect, Layer } from "effect"
import * as ReminderIntake from "../../src/Reminders/Intake.js"
import type { ServerSettings } from "../../src/ServerConfig.js"
import { issue, WebKeys } from "../../src/Web/SignIn.js"
import { client } from "../apiClient.js"
import { aliceUpdate, apiToken, closeIdle, Harness, layer, telegram, voiceSaying } from "../harness.js"

export const alice = "telegram:100000001"

export const plan: Plan = {
  ...emptyPlan,
  people: [
    { contactId: null, name: "Ana Souza", notes: [{ sourceItemSeqs: [1, 2, 3], directives: [", remind me on Sunday"] }, { sourceItemSeqs: [5], directives: [] }] },
    { contactId: null, name: "Annie", notes: [{ sourceItemSeqs: [4], directives: [] }] }
  ],
  unclear: [{ sourceItemSeqs: [6], candidates: ["Ana Souza", "Tom"] }],
  reminders: [{ seq: 2, quote: "remind me on Sunday", due: "2026-01-04T09:00" }]
}

/** The server with Alice's notes to come, the operator reading other users' as `mode` says, and the pages' keys. */
export const layerFor = (mode: ServerSettings["operatorReads"], steps = [planStep(plan)]) =>
  WebKeys.layer.pipe(Layer.provideMerge(layer(steps, { settings: { operatorReads: mode } })))

/** An `edited_message` from Alice: message `messageId` now reads `text`, edited at `editDate` (Unix seconds). */
const edited = (messageId: number, text: string, editDate: number) => {
  const update = JSON.parse(aliceUpdate(messageId, { text })) as { message: Record<string, unknown> }
  return JSON.stringify({ update_id: 910000 + messageId, edited_message: { ...update.message, edit_date: editDate } })
}

/** Alice's messages captured and planned, then her people and notes curated through the API. */
export const history = Effect.gen(function*() {
  yield* voiceSaying("telegram", "v-1", "She has a cat called Miso.")
  const voice = { voice: { file_id: "v-1", file_unique_id: "u-v-1", duration: 2, mime_type: "audio/ogg" } }
  for (
    const body of [
      aliceUpdate(1, { text: "Ana moved to Porto in May." }),
      aliceUpdate(2, { text: "She starts at the clinic on Monday, remind me on Sunday" }),
      aliceUpdate(3, voice),
      aliceUpdate(4, { text: "Annie plays the cello." }),
      aliceUpdate(5, { text: "Ana owes me 20 euros." }),
      aliceUpdate(6, { text: "One of them has `code` and a ```fence```:\n```\n# not a heading\n```" }),
      edited(1, "Ana moved to Porto in June.", 1767225700)
    ]
  ) expect(yield* telegram(body)).toEqual({ status: 200, body: "" })
  expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
  expect(yield* ReminderIntake.pass).toBe(1)
  const [ana, souza] = [PersonId.make("person_1"), PersonId.make("person_2")]
  yield* client((c) => c.api.answer({ path: { id: QuestionId.make("q_1") }, payload: { answer: { _tag: "Person", contactId: null, name: "Ana Souza" } } }))
  yield* client((c) => c.curation.mergePeople({ path: { id: souza }, payload: { into: ana } }))
  yield* client((c) => c.curation.renamePerson({ path: { id: ana }, payload: { name: "Ana Lima" } }))
  yield* client((c) => c.curation.splitNote({ path: { id: NoteId.make("note_1") }, payload: { atSeq: 3 } }))
  yield* client((c) => c.curation.discardNote({ path: { id: NoteId.make("note_3") } }))
})

/** A sign-in cookie: the operator's (signed in with the API token) or a user's. */
export const cookieOf = (who: "operator" | string) =>
  Effect.gen(function*() {
    const { baseUrl } = yield* Harness
    const { key } = yield* WebKeys
    if (who !== "operator") return `verbatim_session=${issue(key, { _tag: "User", user: UserId.make(who) }, Date.now() + 3_600_000)}`
    return yield* Effect.promise(async () => {
      const signIn = await fetch(`${baseUrl}/signin`, { method: "POST", body: new URLSearchParams({ token: apiToken }), redirect: "manual" })
      return signIn.headers.get("set-cookie")!.split(";")[0]!
    })
  })

/** A GET with `cookie`: status, the headers a download is judged by, and the body. */
export const fetchWith = (cookie: string, path: string) =>
  Effect.flatMap(Harness, ({ baseUrl }) =>
    Effect.promise(async () => {
      const response = await fetch(`${baseUrl}${path}`, { headers: { cookie }, redirect: "manual" })
      const headers = Object.fromEntries(
        ["content-type", "content-disposition", "location"].flatMap((name) => {
          const value = response.headers.get(name)
          return value === null ? [] : [[name, value]]
        })
      )
      return { status: response.status, headers, body: await response.text() }
    }))
