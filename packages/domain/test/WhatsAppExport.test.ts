import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either } from "effect"
import { parseWhatsAppExport } from "../src/Inbound/WhatsAppExport.js"

const at = (iso: string) => DateTime.unsafeMake(iso)

const android = [
  "31/12/2023, 21:15 - Messages and calls are end-to-end encrypted. No one outside of this chat can read them.",
  "31/12/2023, 21:15 - José Núñez: Ana starts at the clinic in March.",
  "She wants a quiet desk.",
  "",
  "31/12/2023, 21:16 - José Núñez: <Media omitted>",
  "31/12/2023, 21:16 - José Núñez: ok",
  "31/12/2023, 21:16 - José Núñez: ok",
  "01/01/2024, 09:00 - Mia: remind me: tea"
].join("\n")

const ios = [
  "\u200e[12/31/23, 9:15:42\u202fPM] Mia: first",
  "\u200e[12/31/23, 9:16:00\u202fPM] Mia: \u200eimage omitted",
  "[12/31/23, 9:17:00\u202fPM] Mia: \u200e<attached: 00000012-PHOTO-2023-12-31.jpg>",
  "the view from the office"
].join("\r\n")

describe("parseWhatsAppExport", () => {
  it("reads an Android export: multi-line messages, media placeholders, repeats and notices", () => {
    expect(parseWhatsAppExport(android)).toEqual(Either.right([
      {
        exportId: "f2e8fc1b/2023-12-31T21:15:00.000Z/fb580de2/1", formerExportIds: ["2023-12-31T21:15:00.000Z/fb580de2/1"], author: "José Núñez", forwardedFrom: null,
        sentAt: at("2023-12-31T21:15:00Z"), text: "Ana starts at the clinic in March.\nShe wants a quiet desk.",
        kind: "text", links: [], replyTo: null, location: "line 2"
      },
      {
        exportId: "f2e8fc1b/2023-12-31T21:16:00.000Z/9d8f5bd0/1", formerExportIds: ["2023-12-31T21:16:00.000Z/9d8f5bd0/1"], author: "José Núñez", forwardedFrom: null,
        sentAt: at("2023-12-31T21:16:00Z"), text: "", kind: "media-without-text", links: [], replyTo: null, location: "line 5"
      },
      {
        exportId: "f2e8fc1b/2023-12-31T21:16:00.000Z/79affe66/1", formerExportIds: ["2023-12-31T21:16:00.000Z/79affe66/1"], author: "José Núñez", forwardedFrom: null,
        sentAt: at("2023-12-31T21:16:00Z"), text: "ok", kind: "text", links: [], replyTo: null, location: "line 6"
      },
      {
        exportId: "f2e8fc1b/2023-12-31T21:16:00.000Z/79affe66/2", formerExportIds: ["2023-12-31T21:16:00.000Z/79affe66/2"], author: "José Núñez", forwardedFrom: null,
        sentAt: at("2023-12-31T21:16:00Z"), text: "ok", kind: "text", links: [], replyTo: null, location: "line 7"
      },
      {
        exportId: "f2e8fc1b/2024-01-01T09:00:00.000Z/2ee78d3f/1", formerExportIds: ["2024-01-01T09:00:00.000Z/2ee78d3f/1"], author: "Mia", forwardedFrom: null,
        sentAt: at("2024-01-01T09:00:00Z"), text: "remind me: tea", kind: "text", links: [], replyTo: null, location: "line 8"
      }
    ]))
  })

  it("reads an iOS export with 12-hour times, month-first dates and captions after an attachment", () => {
    expect(Either.map(parseWhatsAppExport(ios), (ms) => ms.map((m) => [DateTime.formatIso(m.sentAt), m.kind, m.text, m.location])))
      .toEqual(Either.right([
        ["2023-12-31T21:15:42.000Z", "text", "first", "line 1"],
        ["2023-12-31T21:16:00.000Z", "media-without-text", "", "line 2"],
        ["2023-12-31T21:17:00.000Z", "caption", "the view from the office", "line 3"]
      ]))
  })

  it("names the line that is not an export line, and a date that does not exist in the given order", () => {
    expect(Either.mapLeft(parseWhatsAppExport("hello\n31/12/2023, 21:15 - A: b"), (e) => e.message)).toEqual(Either.left(
      "line 1: expected a line starting with a date like \"31/12/2023, 21:15 - Name: text\"; use the .txt file WhatsApp's " +
        "\"Export chat\" writes (without media, or unzip it first)"
    ))
    expect(Either.mapLeft(parseWhatsAppExport("31/12/2023, 21:15 - A: b", { dateOrder: "mdy" }), (e) => e.message))
      .toEqual(Either.left("line 1: \"31/12/2023\" is not a date in mdy order; pass the other date order"))
  })
})
