/**
 * `VERBATIM_OPERATOR_READS` on the web pages, over real HTTP: the operator signed in with the API
 * token, and Alice signed in as herself. Under `none` another user's note, person or file is a 403
 * page naming the setting, their people are counts, their questions and sessions shapes, search
 * the operator's own; under `audited` each page that shows Alice's text records one read, and
 * Alice's own page lists them.
 */
import { describe, expect, it } from "@effect/vitest"
import { UserId } from "@verbatim/domain/Ids"
import { notReadMessage } from "@verbatim/domain/OperatorReads/Mode"
import { emptyPlan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect, Layer } from "effect"
import { issue, WebKeys } from "../../src/Web/SignIn.js"
import { aliceUpdate, apiToken, closeIdle, Harness, imageShowing, layer, telegram } from "../harness.js"
import { alice, aliceSession, history, ids, operatorReads, pagesLayerFor } from "../operatorReadsFixture.js"
import { mainText } from "../unescapeHtml.js"

/** The operator's and Alice's sign-in cookies. */
const cookies = Effect.gen(function*() {
  const { baseUrl } = yield* Harness
  const { key } = yield* WebKeys
  const operator = yield* Effect.promise(async () => {
    const signIn = await fetch(`${baseUrl}/signin`, { method: "POST", body: new URLSearchParams({ token: apiToken }), redirect: "manual" })
    return signIn.headers.get("set-cookie")!.split(";")[0]!
  })
  return { operator, alice: `verbatim_session=${issue(key, { _tag: "User", user: UserId.make(alice) }, Date.now() + 3_600_000)}` }
})

/** A page as `cookie`'s holder reads it: its status and main text. */
const page = (cookie: string, path: string) =>
  Effect.flatMap(Harness, ({ baseUrl }) =>
    Effect.promise(async () => {
      const response = await fetch(`${baseUrl}${path}`, { headers: { cookie }, redirect: "manual" })
      return { status: response.status, text: mainText(await response.text()) }
    }))

const notShown = {
  status: 403,
  text: `Not shown to the operator ${notReadMessage} Go to the people`
}

/** The shipped prompt v2's sha256, as a note's technical details name it. */
const promptHash = "d46ff587b72a2f38141e82ea34c618bb7a6c84f1180d2d92b17fbe6d617b13f4"

const beaNotePage = "Note about Bea 1 January 1970, 00:00 (UTC) · session web:web:operator:operator:1 · all notes about Bea Bea lends me her ladder on Friday. " +
  "Sources seq 1 1 January 1970, 00:00 (UTC) · web:operator/b1 Instructions cut None. How it was filed By the model, reading the whole conversation. " +
  `Technical details Plan plan_1 · prompt v2, sha256 ${promptHash} · model scripted · 0 tokens in, 0 out ` +
  "Change it File under My own notes Someone else, named below A new person, named below Their name Move Discard this note " +
  "Its messages stay in the log and the session's accounting; you can restore it. " +
  "Forget this note Unlike discarding, forgetting erases its words for good, everywhere."

const anaNotePage = "Note about Ana Souza 1 January 1970, 00:00 (UTC) · session telegram:100000001:100000001:1 · all notes about Ana Souza " +
  "Ana moved to Porto in May. She starts at the clinic on Monday , remind me on Sunday " +
  "Sources seq 1 1 January 1970, 00:00 (UTC) · 100000001:1 seq 2 1 January 1970, 00:00 (UTC) · 100000001:2 Instructions cut seq 2: , remind me on Sunday " +
  "Reminders these words set &ldquo;remind me on Sunday&rdquo; due 4 January 2026, 09:00 (UTC) · coming up · Reminders " +
  "How it was filed By the model, reading the whole conversation. " +
  `Technical details Plan plan_2 · prompt v2, sha256 ${promptHash} · model scripted · 0 tokens in, 0 out ` +
  "Change it File under My own notes Someone else, named below A new person, named below " +
  "Their name Move Split before message 2: She starts at the clinic on Monday, remi… Split Discard this note " +
  "Its messages stay in the log and the session's accounting; you can restore it. " +
  "Forget this note Unlike discarding, forgetting erases its words for good, everywhere."

const sessionPlans = "Plans plan_2: messages 1&ndash;4, prompt v2, scripted, 0 in / 0 out"

describe("VERBATIM_OPERATOR_READS on the pages", () => {
  it.effect("none: another user's person and note are a 403 page naming the setting, their people counts, their questions and session shapes; the operator's own read whole", () =>
    Effect.gen(function*() {
      yield* history
      const who = yield* cookies
      const seen = []
      for (const path of ["/", "/own", `/people/${ids.anaPerson}`, `/notes/${ids.anaNote}`, `/notes/${ids.beaNote}`, "/questions", "/search?q=clinic", `/sessions/${aliceSession}`]) {
        seen.push(yield* page(who.operator, path))
      }
      expect(seen).toEqual([
        { status: 200, text: `People Find Search Bea 1 note web:operator Other users ${notReadMessage} telegram:100000001 1 person, 1 note` },
        { status: 200, text: `Own notes Notes about no one in particular: your own thinking. Only yours (web:operator) are listed. ${notReadMessage} None yet.` },
        notShown,
        notShown,
        { status: 200, text: beaNotePage },
        { status: 200, text: `Questions Who is this about? telegram:100000001 session 1 message, not shown: ${notReadMessage}` },
        { status: 200, text: `Search Words Search Only your own messages (web:operator) are searched. ${notReadMessage} Nothing holds every one of those words.` },
        {
          status: 200,
          text: `Session telegram:100000001:100000001:1 · planned ${notReadMessage} seq 1 in a note Forget this message seq 2 in a note Forget this message seq 3 in a question Forget this message seq 4 an instruction to the bot Forget this message ${sessionPlans}`
        }
      ])
      expect(yield* page(who.alice, "/reads")).toEqual({
        status: 200,
        text: "Operator reads The operator does not read your messages or notes here: they see how many you have, never their text (VERBATIM_OPERATOR_READS=none). No read of yours is recorded."
      })
      expect(yield* operatorReads).toEqual([])
    }).pipe(Effect.provide(pagesLayerFor("none"))))

  it.effect("audited: each page showing Alice's text records one read before it answers, and Alice's own page lists them, newest first", () =>
    Effect.gen(function*() {
      yield* history
      const who = yield* cookies
      expect(yield* page(who.operator, `/notes/${ids.anaNote}`)).toEqual({ status: 200, text: anaNotePage })
      expect(yield* page(who.operator, `/notes/${ids.beaNote}`)).toEqual({ status: 200, text: beaNotePage })
      expect(yield* page(who.operator, "/")).toEqual({ status: 200, text: "People Find Search Ana Souza 1 note telegram:100000001 Bea 1 note web:operator" })
      expect(yield* page(who.operator, `/sessions/${aliceSession}`)).toEqual({
        status: 200,
        text: "Session telegram:100000001:100000001:1 · planned seq 1 in a note about Ana Souza Forget this message Ana moved to Porto in May. " +
          "seq 2 in a note about Ana Souza Forget this message She starts at the clinic on Monday, remind me on Sunday " +
          "seq 3 in a question Forget this message Ana or Tom, one of them has a cat. " +
          `seq 4 an instruction to the bot Forget this message thanks bot ${sessionPlans}`
      })
      // Alice reading her own pages records nothing.
      expect((yield* page(who.alice, `/notes/${ids.anaNote}`)).status).toBe(200)
      expect(yield* operatorReads).toEqual([
        { stream: `operator-reads-${alice}#1`, kind: "note", route: `GET /notes/${ids.anaNote}`, ids: [ids.anaNote], user: alice },
        { stream: `operator-reads-${alice}#2`, kind: "people", route: "GET /", ids: [ids.anaPerson], user: alice },
        { stream: `operator-reads-${alice}#3`, kind: "session", route: `GET /sessions/${aliceSession}`, ids: [aliceSession], user: alice }
      ])
      expect(yield* page(who.alice, "/reads")).toEqual({
        status: 200,
        text: "Operator reads The operator can read your messages and notes here, and every time they do it is listed below (VERBATIM_OPERATOR_READS=audited). " +
          `The operator read your notes on 1 January 1970, 00:00 (UTC): a session's messages (GET /sessions/${aliceSession}) ` +
          "The operator read your notes on 1 January 1970, 00:00 (UTC): your people list (1 person) (GET /) " +
          `The operator read your notes on 1 January 1970, 00:00 (UTC): a note (GET /notes/${ids.anaNote})`
      })
    }).pipe(Effect.provide(pagesLayerFor("audited"))))

  it.effect("all: the operator reads Alice's note, nothing is recorded, and Alice's page says so", () =>
    Effect.gen(function*() {
      yield* history
      const who = yield* cookies
      expect(yield* page(who.operator, `/notes/${ids.anaNote}`)).toEqual({ status: 200, text: anaNotePage })
      expect(yield* operatorReads).toEqual([])
      expect(yield* page(who.alice, "/reads")).toEqual({
        status: 200,
        text: "Operator reads The operator can read all your messages and notes here, and their reads are not recorded (VERBATIM_OPERATOR_READS=all). No read of yours is recorded."
      })
    }).pipe(Effect.provide(pagesLayerFor("all"))))

  describe("a file Alice sent", () => {
    const photoPlan = planStep({ ...emptyPlan, unattached: [{ sourceItemSeqs: [1], directives: [] }] })
    const photoLayer = (mode: "none" | "audited") =>
      Effect.provide(WebKeys.layer.pipe(Layer.provideMerge(layer([photoPlan], { settings: { operatorReads: mode } }))))
    /** Alice's photo, fetched and read, and the operator's view of it. */
    const operatorFetch = Effect.gen(function*() {
      yield* imageShowing("telegram", "photo-1", "ROOM 12")
      const photo = [{ file_id: "photo-1", file_unique_id: "u-photo-1", width: 900, height: 300, file_size: 20000 }]
      expect(yield* telegram(aliceUpdate(1, { photo }))).toEqual({ status: 200, body: "" })
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      const who = yield* cookies
      return yield* Effect.flatMap(Harness, ({ baseUrl }) =>
        Effect.promise(async () => {
          const response = await fetch(`${baseUrl}/media/${alice}:1/0`, { headers: { cookie: who.operator } })
          return { status: response.status, type: response.headers.get("content-type"), text: response.status === 200 ? "" : await response.text() }
        }))
    })

    it.effect("none: is a 403 to the operator, naming the setting", () =>
      Effect.gen(function*() {
        expect(yield* operatorFetch).toEqual({ status: 403, type: "text/plain", text: `Forbidden: ${notReadMessage}` })
        expect(yield* operatorReads).toEqual([])
      }).pipe(photoLayer("none")))

    it.effect("audited: is served to the operator once its read is recorded", () =>
      Effect.gen(function*() {
        expect(yield* operatorFetch).toEqual({ status: 200, type: "image/png", text: "" })
        expect(yield* operatorReads).toEqual([{ stream: `operator-reads-${alice}#1`, kind: "media", route: `GET /media/${alice}:1/0`, ids: [`${alice}:1/0`], user: alice }])
      }).pipe(photoLayer("audited")))
  })
})
