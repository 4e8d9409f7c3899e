/**
 * "What I hold about X" over real HTTP: a merged, renamed and curated person's copy as the page's
 * downloads (whole Markdown, whole JSON) and as the API's export; who may read it under
 * `VERBATIM_OPERATOR_READS`; and a person with more notes than a page of the read model's
 * queries, exported whole.
 */
import { describe, expect, it } from "@effect/vitest"
import { PersonId } from "@verbatim/domain/Ids"
import { notReadMessage } from "@verbatim/domain/OperatorReads/Mode"
import { emptyPlan } from "@verbatim/domain/Plan"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { notesPage } from "../../src/SubjectAccess.js"
import { captureMessages, client, failureOf } from "../apiClient.js"
import { api, closeIdle } from "../harness.js"
import { operatorReads } from "../operatorReadsFixture.js"
import { mainText } from "../unescapeHtml.js"
import { alice, cookieOf, fetchWith, history, layerFor } from "./SubjectAccessFixture.js"

const expected = (name: string) => readFileSync(new URL(`../fixtures/subject-access/${name}`, import.meta.url), "utf8")

/** Ana's copy, as Alice's history leaves it: read by eye once, then held whole. */
const markdown = expected("ana-lima.md")
const json = JSON.parse(expected("ana-lima.json")) as unknown

const download = (extension: "md" | "json") => ({
  "content-type": extension === "md" ? "text/markdown; charset=utf-8" : "application/json; charset=utf-8",
  "content-disposition": `attachment; filename="ana-lima.${extension}"; filename*=UTF-8''ana-lima.${extension}`
})

/** A person's subject-access copy through the API. */
const exportOf = (id: string) => client((c) => c.api.personExport({ path: { id: PersonId.make(id) } }))

const heldSection = `<section data-held>
<h2>What I hold about Ana Lima</h2>
<p class="muted">A copy of every note filed under Ana Lima, those of people merged into them and discarded ones included, each with the messages it was made from quoted exactly, their edits and attachments, the instructions cut, how it was filed and every change made to it.</p>
<p><a href="/people/person_1/export.md" download>Download as Markdown</a> · <a href="/people/person_1/export.json" download>Download as JSON</a></p>
</section>`

describe("the subject-access copy of a person", () => {
  it.effect("Alice downloads Ana's copy whole, as Markdown and as JSON; her page links them; Annie's old address leads to them; the operator reads the same under all", () =>
    Effect.gen(function*() {
      yield* history
      const own = yield* cookieOf(alice)
      const md = yield* fetchWith(own, "/people/person_1/export.md")
      const encoded = yield* fetchWith(own, "/people/person_1/export.json")
      expect({ ...md, body: md.body.split("\n") }).toEqual({ status: 200, headers: download("md"), body: markdown.split("\n") })
      expect({ ...encoded, body: JSON.parse(encoded.body) }).toEqual({ status: 200, headers: download("json"), body: json })
      const page = yield* fetchWith(own, "/people/person_1")
      expect(/<section data-held>[\s\S]*?<\/section>/.exec(page.body)?.[0]).toBe(heldSection)
      expect(yield* fetchWith(own, "/people/person_2/export.md")).toEqual({ status: 303, headers: { location: "/people/person_1/export.md" }, body: "" })
      const operator = yield* cookieOf("operator")
      const read = yield* fetchWith(operator, "/people/person_1/export.json")
      expect({ ...read, body: JSON.parse(read.body) }).toEqual({ status: 200, headers: download("json"), body: json })
      // The API's export is the same document; a person merged away is exported as whom they joined.
      // Read raw: the claim is that the API sends the very JSON the page's download holds.
      expect(yield* api("/api/people/person_1/export")).toEqual({ status: 200, json })
      expect(yield* api("/api/people/person_2/export")).toEqual({ status: 200, json })
      expect(yield* failureOf(exportOf("person_9"))).toEqual({ _tag: "NotFound", resource: "person", id: "person_9" })
      expect(yield* operatorReads).toEqual([])
    }).pipe(Effect.provide(layerFor("all"))), 60_000)

  it.effect("another user's person is a 404; under none the operator is refused on the page and the API, and nothing of Ana is sent", () =>
    Effect.gen(function*() {
      yield* history
      const bob = yield* cookieOf("telegram:100000002")
      const operator = yield* cookieOf("operator")
      const seen = []
      for (const [cookie, path] of [[bob, "/people/person_1/export.md"], [bob, "/people/person_1/export.json"], [operator, "/people/person_1/export.md"]] as const) {
        const reply = yield* fetchWith(cookie, path)
        seen.push({ status: reply.status, type: reply.headers["content-type"], text: mainText(reply.body) })
      }
      expect(seen).toEqual([
        { status: 404, type: "text/html; charset=utf-8", text: "Not found No such person." },
        { status: 404, type: "text/html; charset=utf-8", text: "Not found No such person." },
        { status: 403, type: "text/html; charset=utf-8", text: `Not shown to the operator ${notReadMessage} Go to the people` }
      ])
      expect(yield* failureOf(exportOf("person_1"))).toEqual({ _tag: "OperatorReadRefused", message: notReadMessage })
      expect(yield* operatorReads).toEqual([])
    }).pipe(Effect.provide(layerFor("none"))), 60_000)

  it.effect("audited: the operator's download is one read of Alice's, naming Ana and every note, and Alice's page lists it first", () =>
    Effect.gen(function*() {
      yield* history
      // The curation through the API was read back, and recorded, first.
      const before = (yield* operatorReads).length
      expect((yield* fetchWith(yield* cookieOf("operator"), "/people/person_1/export.md")).status).toBe(200)
      expect((yield* operatorReads).slice(before)).toEqual([{
        stream: `operator-reads-${alice}#${before + 1}`,
        kind: "subject-access",
        route: "GET /people/person_1/export.md",
        ids: ["person_1", "note_1", "note_2", "note_4", "note_5", "note_3"],
        user: alice
      }])
      const reads = yield* fetchWith(yield* cookieOf(alice), "/reads")
      expect(mainText(reads.body)).toBe(
        "Operator reads The operator can read your messages and notes here, and every time they do it is listed below (VERBATIM_OPERATOR_READS=audited). " +
          "The operator read your notes on 1 January 1970, 00:00 (UTC): a copy of everything filed about a person (GET /people/person_1/export.md) " +
          "The operator read your notes on 1 January 1970, 00:00 (UTC): a note (POST /api/notes/note_3/discard) " +
          "The operator read your notes on 1 January 1970, 00:00 (UTC): 2 notes (POST /api/notes/note_1/split) " +
          "The operator read your notes on 1 January 1970, 00:00 (UTC): a person's notes (POST /api/people/person_1/rename) " +
          "The operator read your notes on 1 January 1970, 00:00 (UTC): a person's notes (POST /api/people/person_2/merge)"
      )
    }).pipe(Effect.provide(layerFor("audited"))), 60_000)

  const many = 2 * notesPage + 1
  const texts = Array.from({ length: many }, (_, i) => `Bea note ${i + 1}.`)
  const beaPlan = planStep({ ...emptyPlan, people: [{ contactId: null, name: "Bea", notes: texts.map((_, i) => ({ sourceItemSeqs: [i + 1], directives: [] })) }] })

  it.effect(`a person with ${many} notes, more than a page of the read model's queries, is exported whole`, () =>
    Effect.gen(function*() {
      for (let from = 0; from < many; from += 100) {
        const messages = texts.slice(from, from + 100).map((text, i) => ({ id: `b${from + i + 1}`, text }))
        yield* captureMessages(messages, { close: from + 100 >= many })
      }
      expect(yield* closeIdle).toEqual({ closed: 0, planned: 1 })
      const copy = yield* exportOf("person_1")
      expect({ notes: copy.notes.map((n) => [n.body, n.sources.map((s) => s.seq)]), discarded: copy.discarded })
        .toEqual({ notes: texts.map((text, i) => [text, [i + 1]]), discarded: [] })
      const md = yield* fetchWith(yield* cookieOf("operator"), "/people/person_1/export.md")
      expect(md.body.split("\n").filter((line) => line.startsWith("## ")))
        .toEqual(copy.notes.map((n, i) => `## Note ${i + 1} of ${many}: \`${n.id}\``))
    }).pipe(Effect.provide(layerFor("none", [beaPlan]))), 120_000)
})
