/** The ask pages' links: a question asked in the Capture box has an id with `/` and `:` in it, and its links still open it. */
import { describe, expect, it } from "@effect/vitest"
import type { Asked } from "@verbatim/domain/AskApi"
import { AskId, MessageId, NoteId, UserId } from "@verbatim/domain/Ids"
import { askedPage, askPage } from "../../src/Web/AskPages.js"

const asked: Asked = {
  id: AskId.make("web-web:operator/2"),
  user: UserId.make("web:operator"),
  question: "who is moving to Lisbon?",
  postedAt: "2026-12-06T12:38:27.888Z",
  status: "answered",
  quotes: [{ messageId: MessageId.make("web:web:operator/1"), noteId: NoteId.make("note_1"), person: "Zoë", day: "2026-12-06", start: 0, end: 3, text: "Zoë", confirmed: false }],
  dropped: 0,
  failure: null,
  text: "“Zoë”\n— Zoë, 6 Dec 2026"
}

const links = (html: string) => [...html.matchAll(/(?:href|action)="([^"]*)"/g)].map((m) => m[1])

describe("the ask pages", () => {
  it("encode a question's id in every link to it, and a quote's message in its note's link", () => {
    expect(links(askPage([asked], "csrf", "", "UTC").value)).toEqual(["/ask", "/asks/web-web%3Aoperator%2F2"])
    expect(links(askedPage(asked, "csrf", "", "UTC").value)).toEqual([
      "/notes/note_1?mark=web%3Aweb%3Aoperator%2F1%3A0-3",
      "/asks/web-web%3Aoperator%2F2/confirm",
      "/ask"
    ])
  })
})
