/**
 * A corpus of WhatsApp export formats, one small export per format, each read whole. Covered
 * (compared with the formats public parsers such as whatsapp-chat-parser test): Android
 * `D/M/YY, H:MM - ` and `M/D/YY, H:MM AM - `, dots (`31.12.23, 21:15 - `), dashes, year first
 * (`2019-01-01 12:00 - `), `a. m.`/`p. m.`; iOS `[D/M/YYYY, H:MM:SS] `, `[M/D/YY, H:MM:SS PM] `
 * with U+202F, Finnish `[12.3.2022 klo 14.08.18] `; notices with and without `: `; marks.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either, Option } from "effect"
import { parseWhatsAppExport, type WhatsAppExportOptions } from "../src/Inbound/WhatsAppExport.js"

const read = (lines: ReadonlyArray<string>, options: WhatsAppExportOptions = {}) =>
  Either.map(
    parseWhatsAppExport(lines.join("\n"), options),
    (messages) => messages.map((m) => [DateTime.formatIso(m.sentAt), m.author, m.kind, m.text])
  )

const corpus: ReadonlyArray<readonly [name: string, lines: ReadonlyArray<string>, first: string]> = [
  ["Android, day first, 24 h", ["31/12/23, 21:15 - Ana: hi", "1/1/24, 9:05 - Tom: yo"], "2023-12-31T21:15:00.000Z"],
  ["Android, US, 12 h", ["12/31/23, 9:15 PM - Ana: hi", "1/1/24, 9:05 AM - Tom: yo"], "2023-12-31T21:15:00.000Z"],
  ["Android, dots (de)", ["31.12.23, 21:15 - Ana: hi", "01.01.24, 09:05 - Tom: yo"], "2023-12-31T21:15:00.000Z"],
  ["Android, dashes (nl)", ["31-12-2023 21:15 - Ana: hi", "01-01-2024 09:05 - Tom: yo"], "2023-12-31T21:15:00.000Z"],
  ["Android, year first (sv, lt)", ["2023-12-31 21:15 - Ana: hi", "2024-01-01 09:05 - Tom: yo"], "2023-12-31T21:15:00.000Z"],
  ["Android, es with p. m.", ["31/12/23, 9:15 p. m. - Ana: hi", "1/1/24, 9:05 a. m. - Tom: yo"], "2023-12-31T21:15:00.000Z"],
  ["iOS, day first, seconds", ["[31/12/2023, 21:15:00] Ana: hi", "[01/01/2024, 09:05:00] Tom: yo"], "2023-12-31T21:15:00.000Z"],
  ["iOS, US, U+202F before PM", ["[12/31/23, 9:15:00\u202fPM] Ana: hi", "[1/1/24, 9:05:00\u202fAM] Tom: yo"], "2023-12-31T21:15:00.000Z"],
  ["iOS, Finnish klo", ["[31.12.2023 klo 21.15.00] Ana: hi", "[1.1.2024 klo 9.05.00] Tom: yo"], "2023-12-31T21:15:00.000Z"]
]

describe("WhatsApp export formats", () => {
  for (const [name, lines, first] of corpus) {
    it(`reads ${name}`, () => {
      expect(read(lines)).toEqual(Either.right([
        [first, "Ana", "text", "hi"],
        ["2024-01-01T09:05:00.000Z", "Tom", "text", "yo"]
      ]))
    })
  }

  it("reads a Finnish line with a one-digit month as it is written", () => {
    expect(read(["[12.3.2022 klo 14.08.18] Ana: moi"])).toEqual(Either.right([["2022-03-12T14:08:18.000Z", "Ana", "text", "moi"]]))
  })

  it("skips notices whose text holds `: ` and iOS notices written as the chat's name", () => {
    expect(read([
      "31/12/2023, 21:00 - Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, " +
      "can read or listen to them. Tap to learn more.",
      "31/12/2023, 21:01 - Ana created group \"Trip: Lisbon\"",
      "31/12/2023, 21:02 - Ana changed the subject from \"Trip: Lisbon\" to \"Trip: Porto\"",
      "31/12/2023, 21:03 - Ana added Tom",
      "[31/12/2023, 21:04:00] Trip: Porto: \u200eAna changed this group's icon",
      "31/12/2023, 21:05 - Ana: the plan: Porto on Friday"
    ])).toEqual(Either.right([["2023-12-31T21:05:00.000Z", "Ana", "text", "the plan: Porto on Friday"]]))
  })

  it("keeps U+200E/U+200F inside a message's text and drops the marks around placeholders and phone-number authors", () => {
    expect(read([
      "\u200e[31/12/2023, 21:15:00] \u202a+351 912 345 678\u202c: \u200eimage omitted",
      "[31/12/2023, 21:16:00] Ana: \u05e9\u05dc\u05d5\u05dd \u200f(Dana)\u200e ok",
      "[31/12/2023, 21:17:00] Ana: \u200e<attached: 00000012-PHOTO.jpg>",
      "caption \u200eone"
    ])).toEqual(Either.right([
      ["2023-12-31T21:15:00.000Z", "+351 912 345 678", "media-without-text", ""],
      ["2023-12-31T21:16:00.000Z", "Ana", "text", "\u05e9\u05dc\u05d5\u05dd \u200f(Dana)\u200e ok"],
      ["2023-12-31T21:17:00.000Z", "Ana", "caption", "caption \u200eone"]
    ]))
  })

  it("reads times in the zone given, across a change of summer time", () => {
    const lisbon = Option.getOrThrow(DateTime.zoneMakeNamed("Europe/Lisbon"))
    expect(read(["15/01/2024, 12:00 - Ana: winter", "15/07/2024, 12:00 - Ana: summer"], { timeZone: lisbon })).toEqual(Either.right([
      ["2024-01-15T12:00:00.000Z", "Ana", "text", "winter"],
      ["2024-07-15T11:00:00.000Z", "Ana", "text", "summer"]
    ]))
  })

  it("names the chat in each id: the same line in two chats is two messages, and a re-export keeps its ids", () => {
    const ids = (lines: ReadonlyArray<string>, chat?: string) => Either.getOrThrow(parseWhatsAppExport(lines.join("\n"), { chat })).map((m) => m.exportId)
    const ana = ["31/12/2023, 21:00 - Ana: are you coming?", "31/12/2023, 21:05 - Me: ok"]
    const tom = ["31/12/2023, 20:00 - Tom: dinner at 9", "31/12/2023, 21:05 - Me: ok"]
    expect(ids(ana)).toEqual(["f271bc2c/2023-12-31T21:00:00.000Z/26692276/1", "f271bc2c/2023-12-31T21:05:00.000Z/986422d9/1"])
    expect(ids(tom)[1]).toEqual("1c33250e/2023-12-31T21:05:00.000Z/986422d9/1")
    expect(ids([...ana, "01/01/2024, 10:00 - Ana: happy new year"]).slice(0, 2)).toEqual(ids(ana))
    expect(ids(tom, "Ana")[1]).toEqual(ids(ana, "Ana")[1])
  })
})
