/**
 * Forgetting a note in Chromium at 360 px, by the pages' own links and form (no script): the note,
 * its confirmation, the person page it leads to, the note's address after and the session where its
 * messages read erased, each checked with axe-core, photographed and no wider than the screen.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Page } from "puppeteer-core"
import { Harness } from "../harness.js"
import { browse, chromium, looked, narrowAs, submit } from "./browser.js"
import { session } from "./ForgetFixture.js"
import { alice, cookieOf, history, layerFor } from "./SubjectAccessFixture.js"

const text = (page: Page, selector: string) => page.$eval(selector, (e) => e.textContent?.replace(/\s+/g, " ").trim())

describe.skipIf(chromium === undefined)("forgetting in Chromium", () => {
  it.effect("Alice forgets a note from its page at 360 px: the confirmation says what goes, the person page what went", () =>
    Effect.gen(function*() {
      yield* history
      const { baseUrl } = yield* Harness
      const cookie = (yield* cookieOf(alice)).slice("verbatim_session=".length)
      const seen = yield* browse(async (browser) => {
        const page = await narrowAs(await browser.newPage(), baseUrl, cookie)
        await page.goto(`${baseUrl}/notes/note_1`)
        const note = await looked(page, "f1-note-360px")
        await submit(page, "[data-forget] a")
        const asked = { path: new URL(page.url()).pathname, says: await text(page, "[data-forgetting]"), going: await text(page, "[data-forgotten]") }
        const confirmation = await looked(page, "f2-forget-note-360px")
        await submit(page, "[data-form=forget] button[type=submit]")
        const after = { path: new URL(page.url()).pathname, notice: await text(page, "[role=status]") }
        const notes = await page.$$eval("[data-notes=live] .body", (bodies) => bodies.map((b) => b.textContent))
        const person = await looked(page, "f3-forgotten-360px")
        const gone = await page.goto(`${baseUrl}/notes/note_1`)
        const forgotten = { status: gone?.status(), says: await text(page, "[data-forgotten-at]") }
        const goneLook = await looked(page, "f4-note-forgotten-360px")
        await page.goto(`${baseUrl}/sessions/${session}`)
        const dispositions = await page.$$eval("[data-disposition]", (spans) => spans.map((s) => s.textContent))
        const sessionLook = await looked(page, "f5-session-erased-360px")
        return { note, asked, confirmation, after, notes, person, forgotten, goneLook, dispositions, sessionLook }
      })
      const fine = { problems: [], width: 360 }
      expect(seen).toEqual({
        note: fine,
        asked: {
          path: "/notes/note_1/forget",
          says: "This erases the words of 2 messages in 1 conversation, and with them this note, the instruction cut from them and the words of the reminder they set. It cannot be undone. Backups taken before keep them.",
          going: "Ana moved to Porto in June. She starts at the clinic on Monday"
        },
        confirmation: fine,
        after: { path: "/people/person_1", notice: "Forgotten: a note, the words of 2 messages in 1 conversation." },
        notes: ["🎤 She has a cat called Miso.", "One of them has `code` and a ```fence```:\n```\n# not a heading\n```", "Annie plays the cello."],
        person: fine,
        forgotten: {
          status: 410,
          says: "It was forgotten on 1 January 1970, 00:00 (UTC) at your request: its words are gone from every page, the search and the store. Backups taken before keep them."
        },
        goneLook: fine,
        dispositions: [
          "erased on 1 January 1970 at your request",
          "erased on 1 January 1970 at your request",
          "in a note about Ana Lima",
          "in a note about Ana Lima",
          "discarded by the user, in a note about Ana Lima that can be restored",
          "in a note about Ana Lima"
        ],
        sessionLook: fine
      })
    }).pipe(Effect.provide(layerFor("all"))), 90_000)
})
