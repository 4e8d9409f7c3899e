/**
 * The files people sent, on their note page: served to their sender alone, in ranges a player
 * asks for; each transcribed stretch played from its own seconds, a PDF's pages drawn beside
 * their text. Checked over HTTP, then in Chromium (screenshot `note-media.png`).
 */
import { describe, expect, it } from "@effect/vitest"
import { emptyPlan, type Plan } from "@verbatim/domain/Plan"
import { FakeTranscriber, transcript } from "@verbatim/testkit/FakeTranscriber"
import { pdfOf, textPage } from "@verbatim/testkit/RealPdf"
import { spokenOgg } from "@verbatim/testkit/RealMedia"
import { planStep, ScriptedLanguageModel } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { aliceUpdate, closeIdle, drain, filesOf, Harness, layer, senderUpdate, telegram, telegramCalls } from "../harness.js"
import { browse, shoot, violations } from "./browser.js"

const mine = (...seqs: ReadonlyArray<number>): Plan => ({ ...emptyPlan, unattached: [{ sourceItemSeqs: seqs, directives: [] }] })
const file = (fileId: string, extra: Record<string, unknown>) => ({ file_id: fileId, file_unique_id: `u-${fileId}`, ...extra })

/** The cookie a user's `/web` link signs in with. */
const signedIn = (sender: number, messageId: number) =>
  Effect.gen(function*() {
    expect(yield* telegram(senderUpdate(sender, messageId, { text: "/web" }))).toEqual({ status: 200, body: "" })
    yield* drain
    const token = (yield* telegramCalls).flatMap((c) => {
      const match = /\/signin\/link\?token=(\S+)/.exec((c.body as { text?: string; chat_id?: string }).text ?? "")
      return match === null || (c.body as { chat_id?: string }).chat_id !== String(sender) ? [] : [match[1]!]
    }).at(-1)!
    const { baseUrl } = yield* Harness
    const response = yield* Effect.promise(() =>
      fetch(`${baseUrl}/signin/link`, { method: "POST", body: new URLSearchParams({ token }), redirect: "manual" }))
    return (response.headers.get("set-cookie") ?? "").split(";")[0]!
  })

const get = (path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(Harness, ({ baseUrl }) =>
    Effect.promise(async () => {
      const response = await fetch(`${baseUrl}${path}`, { headers, redirect: "manual" })
      const body = new Uint8Array(await response.arrayBuffer())
      return {
        status: response.status,
        type: response.headers.get("content-type"),
        range: response.headers.get("content-range"),
        location: response.headers.get("location"),
        csp: response.headers.get("content-security-policy"),
        body
      }
    }))

describe("the files people sent, on their note page", () => {
  it.effect("served whole or in ranges to their sender, never to another user or without a sign-in; players and pages on the note", () =>
    Effect.gen(function*() {
      const ogg = yield* spokenOgg("Ana moved to Porto in May. She starts on Monday.")
      const pdf = pdfOf([textPage("Lease for Ana"), textPage("Signed 3 May")])
      const files = yield* filesOf("telegram")
      // As Telegram's file server does: no type but application/octet-stream; the message said audio/ogg.
      yield* files.add("voice-1", ogg)
      yield* files.add("doc-1", pdf, { mimeType: "application/pdf" })
      yield* (yield* FakeTranscriber).answerNext(transcript("Ana moved to Porto in May.", "She starts on Monday."))
      yield* (yield* ScriptedLanguageModel).push(planStep(mine(1, 2)))
      yield* telegram(aliceUpdate(1, { voice: file("voice-1", { duration: 3, mime_type: "audio/ogg", file_size: ogg.length }) }))
      yield* telegram(aliceUpdate(2, { document: file("doc-1", { file_name: "lease.pdf", mime_type: "application/pdf", file_size: pdf.length }) }))
      expect(yield* closeIdle).toEqual({ closed: 1, planned: 1 })
      const voice = "/media/telegram%3A100000001%3A1/0"
      const alice = yield* signedIn(100000001, 3)
      const whole = yield* get(voice, { cookie: alice })
      expect([whole.status, whole.type, whole.csp, Buffer.from(whole.body).equals(Buffer.from(ogg))]).toEqual([
        200, "audio/ogg", "default-src 'none'; sandbox", true
      ])
      const part = yield* get(voice, { cookie: alice, range: "bytes=100-199" })
      expect([part.status, part.range, Buffer.from(part.body).equals(Buffer.from(ogg.subarray(100, 200)))]).toEqual([206, `bytes 100-199/${ogg.length}`, true])
      expect((yield* get(voice, { cookie: alice, range: `bytes=${ogg.length}-` })).status).toBe(416)
      // A PDF's page, drawn.
      const page = yield* get("/media/telegram%3A100000001%3A2/0/pages/2", { cookie: alice })
      expect([page.status, page.type, Buffer.from(page.body.subarray(1, 4)).toString()]).toEqual([200, "image/png", "PNG"])
      expect((yield* get("/media/telegram%3A100000001%3A2/0/pages/9", { cookie: alice })).status).toBe(404)
      // Another user, no sign-in, and an attachment that is not there.
      yield* (yield* ScriptedLanguageModel).push(planStep(mine(1)))
      expect(yield* telegram(senderUpdate(100000002, 1, { text: "Tom plays chess." }))).toEqual({ status: 200, body: "" })
      const bob = yield* signedIn(100000002, 2)
      expect((yield* get(voice, { cookie: bob })).status).toBe(404)
      expect((yield* get("/media/telegram%3A100000001%3A2/0/pages/1", { cookie: bob })).status).toBe(404)
      const anonymous = yield* get(voice)
      expect([anonymous.status, anonymous.location]).toEqual([303, `/signin?next=${encodeURIComponent(voice)}`])
      expect((yield* get("/media/telegram%3A100000001%3A1/5", { cookie: alice })).status).toBe(404)
      // The note page: a player a transcribed stretch, each playing its own seconds; the PDF's pages beside its text.
      const { baseUrl } = yield* Harness
      const seen = yield* browse(async (browser) => {
        const tab = await browser.newPage()
        await tab.setBypassCSP(true)
        const [name, value] = alice.split("=")
        await tab.setCookie({ name: name!, value: value!, url: baseUrl })
        await tab.goto(`${baseUrl}/notes/note_1`)
        await tab.$$eval("details", (all) => all.forEach((d) => d.setAttribute("open", "")))
        // The pages load lazily, as each comes into view.
        await tab.$$eval("figure img", (all) => all.forEach((img) => img.scrollIntoView()))
        await tab.waitForFunction("Array.from(document.querySelectorAll('figure img')).every((img) => img.complete && img.naturalWidth > 0)", { timeout: 20_000 })
        const players = await tab.$$eval("audio", (all) => all.map((a) => a.getAttribute("src")))
        const pages = await tab.$$eval("figure img", (all) => all.map((img) => [img.getAttribute("src"), (img as unknown as { naturalWidth: number }).naturalWidth > 0]))
        const problems = await violations(tab)
        await shoot(tab, "note-media")
        return { players, pages, problems }
      })
      expect(seen.players.length).toBe(2)
      expect(seen.players.every((src, i) => new RegExp(`^${voice}#t=${i === 0 ? "0" : "[0-9.]+"},[0-9.]+$`).test(src ?? ""))).toBe(true)
      expect(seen.pages).toEqual([
        ["/media/telegram%3A100000001%3A2/0/pages/1", true],
        ["/media/telegram%3A100000001%3A2/0/pages/2", true]
      ])
      expect(seen.problems).toEqual([])
    }).pipe(Effect.provide(layer([]))), 120_000)
})
