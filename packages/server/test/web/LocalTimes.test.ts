/**
 * Times on the pages are read on the viewer's clock with the zone named: a user's own zone (`/tz`)
 * on their pages, the configured default on the operator's; the instant itself stays in
 * `datetime`. A forwarded message is marked as such wherever its words show while a session is open.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { aliceUpdate, telegram } from "../harness.js"
import { unescapeHtml } from "../unescapeHtml.js"
import { alice, cookieOf, fetchWith, history, layerFor } from "./SubjectAccessFixture.js"

/** Every `<time>` on a page: its instant and what it reads. */
const times = (body: string) => [...body.matchAll(/<time datetime="([^"]*)">([^<]*)<\/time>/g)].map((m) => [m[1], unescapeHtml(m[2]!)])

describe("times on the pages", () => {
  it.effect("read in the user's own zone on their pages, in the default zone on the operator's, the instant kept", () =>
    Effect.gen(function*() {
      yield* history
      expect(yield* telegram(aliceUpdate(20, { text: "/tz Asia/Tokyo" }))).toEqual({ status: 200, body: "" })
      const own = yield* cookieOf(alice)
      const operator = yield* cookieOf("operator")
      const person = yield* fetchWith(own, "/people/person_1")
      expect(times(person.body)).toEqual([
        ["1970-01-01T00:00:31.000Z", "1 January 1970, 09:00 (Asia/Tokyo)"],
        ["1970-01-01T00:00:31.000Z", "1 January 1970, 09:00 (Asia/Tokyo)"],
        ["1970-01-01T00:00:31.000Z", "1 January 1970, 09:00 (Asia/Tokyo)"],
        ["1970-01-01T00:00:31.000Z", "1 January 1970, 09:00 (Asia/Tokyo)"],
        ["1970-01-01T00:00:31.000Z", "1 January 1970, 09:00 (Asia/Tokyo)"]
      ])
      expect(times((yield* fetchWith(operator, "/people/person_1")).body)).toEqual([
        ["1970-01-01T00:00:31.000Z", "1 January 1970, 00:00 (UTC)"],
        ["1970-01-01T00:00:31.000Z", "1 January 1970, 00:00 (UTC)"],
        ["1970-01-01T00:00:31.000Z", "1 January 1970, 00:00 (UTC)"],
        ["1970-01-01T00:00:31.000Z", "1 January 1970, 00:00 (UTC)"],
        ["1970-01-01T00:00:31.000Z", "1 January 1970, 00:00 (UTC)"]
      ])
      // The note: when it was filed, each source's time, the edit, and the change Alice made (the split).
      const note = (yield* fetchWith(own, "/notes/note_1")).body
      expect(times(note)).toEqual([
        ["1970-01-01T00:00:31.000Z", "1 January 1970, 09:00 (Asia/Tokyo)"],
        ["1970-01-01T00:00:00.000Z", "1 January 1970, 09:00 (Asia/Tokyo)"],
        ["2026-01-01T00:01:40.000Z", "1 January 2026, 09:01 (Asia/Tokyo)"],
        ["1970-01-01T00:00:00.000Z", "1 January 1970, 09:00 (Asia/Tokyo)"],
        ["1970-01-01T00:00:31.000Z", "1 January 1970, 09:00 (Asia/Tokyo)"]
      ])
      expect([...note.matchAll(/data-slice="\d+" tabindex="0" title="([^"]*)"/g)].map((m) => unescapeHtml(m[1]!))).toEqual([
        "seq 1 · 1 January 1970, 09:00 (Asia/Tokyo) · 100000001:1 · edited 1 January 2026, 09:01 (Asia/Tokyo), was: Ana moved to Porto in May.",
        "seq 2 · 1 January 1970, 09:00 (Asia/Tokyo) · 100000001:2"
      ])
    }).pipe(Effect.provide(layerFor("all"))), 60_000)
})
