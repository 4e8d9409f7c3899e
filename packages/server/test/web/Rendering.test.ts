/**
 * The pages' HTML as text: every interpolated value escaped, and a note's audit view reading back
 * as exactly its body (plus the cut instructions, struck through), whatever the messages hold.
 */
import { describe, expect, it } from "@effect/vitest"
import { assembleNote } from "@verbatim/domain/ApplyPlan/Assembly"
import { MessageId, NoteId, PersonId, PlanId, ReminderId, SessionId, UserId } from "@verbatim/domain/Ids"
import type { NoteAuditView } from "@verbatim/projections/Notebook"
import { DateTime, FastCheck as fc } from "effect"
import { html, raw } from "../../src/Web/Html.js"
import { notePage } from "../../src/Web/NotePage.js"
import { unescapeHtml } from "../unescapeHtml.js"
import { peoplePage } from "../../src/Web/Pages.js"


/** The text of the audit's body element as a browser would read it, cuts left out or kept, without whom forwards came from. */
const bodyText = (page: string, cuts: "without" | "with") => {
  const body = /<div class="body" data-body>([\s\S]*?)<\/div>\n<h2>/.exec(page)?.[1] ?? ""
  const kept = (cuts === "without" ? body.replace(/<del [^>]*>[\s\S]*?<\/del>/g, "") : body).replace(/<small class="fwd" data-forwarded>[^<]*<\/small>/g, "")
  return unescapeHtml(kept.replace(/<[^>]+>/g, ""))
}

const at = DateTime.unsafeMake(Date.UTC(2026, 0, 1))

/** The page drawn for a viewer in UTC, with nothing marked. */
const context = { csrf: "csrf-token", zone: "UTC", notice: "", mark: null }

/** The audit view of a note over these message texts and cuts, as the read model builds it. */
const auditOf = (texts: ReadonlyArray<string>, cut: ReadonlyArray<{ readonly seq: number; readonly text: string }>): NoteAuditView => {
  const messages = texts.map((text, i) => ({ id: MessageId.make(`m/${i + 1}`), seq: i + 1, text }))
  const assembled = assembleNote(messages, cut.map((c) => ({ messageId: MessageId.make(`m/${c.seq}`), text: c.text })))
  return {
    note: {
      id: NoteId.make("n"),
      user: UserId.make("telegram:1"),
      sessionId: SessionId.make("s"),
      owner: { _tag: "Person", name: "Ana <b>", contactId: null },
      personId: null,
      body: assembled.body,
      sources: messages.map((m) => ({ messageId: m.id, seq: m.seq })),
      recordedAt: at
    },
    segments: assembled.segments,
    sources: messages.map((m) => ({
      messageId: m.id,
      seq: m.seq,
      providerMessageId: `p-${m.seq}`,
      text: m.text,
      parts: m.text === "" ? [] : [{ start: 0, end: m.text.length, origin: { _tag: "Sender" } }],
      provider: "telegram",
      sentAt: at,
      receivedAt: at,
      forwardedFrom: null,
      edits: [],
      media: []
    })),
    directives: cut.map((c) => {
      const found = assembled.cuts.find((x) => x.seq === c.seq && x.text === c.text)
      return { messageId: MessageId.make(`m/${c.seq}`), seq: c.seq, text: c.text, start: found?.start ?? null, end: found?.end ?? null }
    }),
    plan: { planId: PlanId.make("p"), promptVersion: "v1", promptHash: "abc", model: "m", usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } },
    mergedFrom: 1,
    confirmation: null,
    discardedAt: null,
    curation: [],
    filedUnder: { personId: null, name: "Ana <b>" },
    reminders: [],
    erased: []
  }
}

describe("page rendering", () => {
  it("escapes every interpolated value and keeps markup it was given", () => {
    expect(html`<p title="${"\"x\" & 'y'"}">${"<script>alert(1)</script>"}${raw("<br>")}${[html`<i>${"<"}</i>`]}${null}${false}${3}</p>`.value)
      .toBe("<p title=\"&quot;x&quot; &amp; &#39;y&#39;\">&lt;script&gt;alert(1)&lt;/script&gt;<br><i>&lt;</i>3</p>")
  })

  it("a note full of markup renders as its characters: the body reads back whole, the owner's name escaped", () => {
    const audit = auditOf(["<script>alert('Ana')</script> & co", "Ana moved to <b>Porto</b>, remind me"], [{ seq: 2, text: ", remind me" }])
    const page = notePage(audit, [], context).value
    expect(page).not.toContain("<script>")
    expect(page).toContain("<h1>Note about Ana &lt;b&gt;</h1>")
    expect(bodyText(page, "without")).toBe("<script>alert('Ana')</script> & co\n\nAna moved to <b>Porto</b>")
    expect(bodyText(page, "with")).toBe("<script>alert('Ana')</script> & co\n\nAna moved to <b>Porto</b>, remind me")
  })

  it("a slice's title names its message's seq, time, provider id, who it was forwarded from, and each edit with the text it replaced", () => {
    const audit = auditOf(["Ana \"moved\"", "to Porto"], [])
    const edited: NoteAuditView = {
      ...audit,
      sources: audit.sources.map((s, i) =>
        i === 0 ? { ...s, forwardedFrom: "Bea <bea@x>", edits: [{ previousText: "Ana moved?", text: s.text, editedAt: DateTime.unsafeMake(Date.UTC(2026, 0, 2, 9, 30)) }] } : s
      )
    }
    const titles = [...notePage(edited, [], { ...context, zone: "America/New_York" }).value.matchAll(/data-slice="\d+" tabindex="0" title="([^"]*)"/g)].map((m) => unescapeHtml(m[1]!))
    expect(titles).toEqual([
      "seq 1 · 31 December 2025, 19:00 (America/New_York) · p-1 · forwarded from Bea <bea@x> · edited 2 January 2026, 04:30 (America/New_York), was: Ana moved?",
      "seq 2 · 31 December 2025, 19:00 (America/New_York) · p-2"
    ])
  })

  it("a forwarded message's words are led by whom they came from, once, escaped; the body reads back whole around it", () => {
    const audit = auditOf(["My news", "I got the job at the Porto office!!", "she said"], [])
    const forwarded: NoteAuditView = { ...audit, sources: audit.sources.map((s, i) => (i === 1 ? { ...s, forwardedFrom: "Carol <c@x>" } : s)) }
    const page = notePage(forwarded, [], context).value
    const body = /<div class="body" data-body>([\s\S]*?)<\/div>\n<h2>/.exec(page)?.[1] ?? ""
    expect(unescapeHtml(body.replace(/<small class="fwd" data-forwarded>([^<]*)<\/small>/g, "[$1]").replace(/<[^>]+>/g, "")))
      .toBe("My news\n\n[Forwarded from Carol <c@x>]I got the job at the Porto office!!\n\nshe said")
    expect(bodyText(page, "without")).toBe(forwarded.note.body)
  })

  it("the sources list the messages the note lost to a forgetting, with when", () => {
    const audit: NoteAuditView = { ...auditOf(["Ana moved to Porto."], []), erased: [{ messageId: MessageId.make("m/2"), seq: 2, erasedAt: DateTime.unsafeMake(Date.UTC(2026, 11, 6, 23, 50)) }] }
    const erased = [...notePage(audit, [], { ...context, zone: "Asia/Tokyo" }).value.matchAll(/<li data-erased>([\s\S]*?)<\/li>/g)].map((m) => unescapeHtml(m[1]!.replace(/<[^>]+>/g, "")))
    expect(erased).toEqual(["seq 2 erased on 7 December 2026 at your request: its words are gone"])
  })

  it("for any messages and cuts, the body as read is the note's body, and with its cuts in place every message's text whole", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", " ", "<", ">", "&", "\"", "'", "\n", "é", "👩‍👧", "\u202e"), maxLength: 30 })
    fc.assert(fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), fc.nat(), fc.nat(), fc.nat(), (texts, which, from, length) => {
      const seq = (which % texts.length) + 1
      const source = texts[seq - 1]!
      const start = source.length === 0 ? 0 : from % source.length
      const cutText = source.slice(start, start + 1 + (length % 6))
      const audit = auditOf(texts, cutText.trim() === "" ? [] : [{ seq, text: cutText }])
      const page = notePage(audit, [], context).value
      expect(bodyText(page, "without")).toBe(audit.note.body)
      // Each slice is the source's characters exactly.
      const slices = [...page.matchAll(/<span class="slice[^"]*" data-slice="(\d+)"[^>]*>([\s\S]*?)<\/span>/g)].map((m) => unescapeHtml(m[2]!.replace(/<[^>]+>/g, "")))
      expect(slices).toEqual(audit.segments.flatMap((s) => (s._tag === "Slice" ? [audit.sources.find((m) => m.messageId === s.messageId)!.text.slice(s.start, s.end)] : [])))
    }), { numRuns: 300 })
  })

  it("a note names the reminders its words set, each in its words with when it is due and where it stands, escaped", () => {
    const audit = auditOf(["Ana moves in May. Remind me <b>Friday</b>"], [{ seq: 1, text: "Remind me <b>Friday</b>" }])
    const reminder = (status: "scheduled" | "delivered", dueLocal: string) => ({
      reminderId: ReminderId.make(`r-${status}`),
      messageId: MessageId.make("m/1"),
      quote: "Remind me <b>Friday</b>",
      start: 18,
      end: 41,
      dueLocal,
      zone: "Europe/Lisbon",
      status
    })
    const page = notePage({ ...audit, reminders: [reminder("scheduled", "2026-01-09T09:00"), reminder("delivered", "2026-01-02T09:00")] }, [], context).value
    const items = /<ul class="list" data-reminders>([\s\S]*?)<\/ul>/.exec(page)?.[1]?.match(/<li>[\s\S]*?<\/li>/g)
    expect(items).toEqual([
      `<li><span>&ldquo;Remind me &lt;b&gt;Friday&lt;/b&gt;&rdquo;</span><span class="muted">due 9 January 2026, 09:00 (Europe/Lisbon) · coming up · <a href="/reminders">Reminders</a></span></li>`,
      `<li><span>&ldquo;Remind me &lt;b&gt;Friday&lt;/b&gt;&rdquo;</span><span class="muted">due 2 January 2026, 09:00 (Europe/Lisbon) · sent, not marked done · <a href="/reminders">Reminders</a></span></li>`
    ])
    expect(notePage(audit, [], context).value).not.toContain("Reminders these words set")
  })

  it("the operator's People list says whose each person is; a user's does not", () => {
    const people = [
      { id: PersonId.make("person_1"), user: UserId.make("telegram:100000001"), name: "Ana", noteCount: 2 },
      { id: PersonId.make("person_2"), user: UserId.make("whatsapp:15550001111"), name: "Ana", noteCount: 1 }
    ]
    const items = (page: string) => [...page.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1])
    expect(items(peoplePage(people, "", true).value)).toEqual([
      `<a href="/people/person_1">Ana</a> <span class="count">2 notes</span> <span class="muted" data-user>telegram:100000001</span>`,
      `<a href="/people/person_2">Ana</a> <span class="count">1 note</span> <span class="muted" data-user>whatsapp:15550001111</span>`
    ])
    expect(items(peoplePage(people, "", false).value)).toEqual([
      `<a href="/people/person_1">Ana</a> <span class="count">2 notes</span>`,
      `<a href="/people/person_2">Ana</a> <span class="count">1 note</span>`
    ])
  })
})
