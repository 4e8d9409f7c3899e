/**
 * The line formats public WhatsApp export parsers test (whatsapp-chat-parser's `parser.test.ts`
 * and `index.test.ts`, whatstk's header formats), each read whole: exact instants, authors and texts.
 * Day/month order comes from the whole file, never from one line.
 */
import { describe, expect, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { propertyRuns } from "@verbatim/testkit/Runs"
import { DateTime, Either } from "effect"
import { parseWhatsAppExport, type WhatsAppExportOptions } from "../src/Inbound/WhatsAppExport.js"

const read = (lines: ReadonlyArray<string>, options: WhatsAppExportOptions = {}) =>
  Either.map(
    parseWhatsAppExport(lines.join("\n"), options),
    (messages) => messages.map((m) => [DateTime.formatIso(m.sentAt), m.author, m.kind, m.text])
  )

type Row = readonly [iso: string, author: string, kind: string, text: string]

const corpus: ReadonlyArray<readonly [name: string, lines: ReadonlyArray<string>, expected: ReadonlyArray<Row>]> = [
  ["Android, p.m. with dots", ["3/6/18, 1:55 p.m. - Ana: lunch?"], [["2018-06-03T13:55:00.000Z", "Ana", "text", "lunch?"]]],
  ["Android, dashes, a comma, dotted time and PM", ["03-06-2018, 01.55 PM - Ana: lunch?"], [
    ["2018-06-03T13:55:00.000Z", "Ana", "text", "lunch?"]
  ]],
  ["dots, dotted time with seconds, a colon and no dash", ["13.06.18 21.25.15: Ana: on my way", "14.06.18 08.01.00: Tom: ok"], [
    ["2018-06-13T21:25:15.000Z", "Ana", "text", "on my way"],
    ["2018-06-14T08:01:00.000Z", "Tom", "text", "ok"]
  ]],
  ["iOS, month first with dots", ["[06.13.18 21:25:15] Ana: on my way", "[06.14.18 08:01:00] Tom: ok"], [
    ["2018-06-13T21:25:15.000Z", "Ana", "text", "on my way"],
    ["2018-06-14T08:01:00.000Z", "Tom", "text", "ok"]
  ]],
  ["Finnish klo with a dash", ["13.6.2018 klo 21.25.15 - Ana: moi"], [["2018-06-13T21:25:15.000Z", "Ana", "text", "moi"]]],
  ["spaces after the dots, a dot after the year, no dash", ["13. 6. 2018. 21:25:15 Ana: szia", "1. 7. 2018. 9:05:00 Tom: hello: again"], [
    ["2018-06-13T21:25:15.000Z", "Ana", "text", "szia"],
    ["2018-07-01T09:05:00.000Z", "Tom", "text", "hello: again"]
  ]],
  ["spaces after the dots and no seconds (12. 3. 2024)", ["12. 3. 2024 14:08 Ana: dobrý den", "13. 3. 2024 7:30 Tom: ahoj"], [
    ["2024-03-12T14:08:00.000Z", "Ana", "text", "dobrý den"],
    ["2024-03-13T07:30:00.000Z", "Tom", "text", "ahoj"]
  ]],
  ["iOS, p. m. without a comma", ["[3/6/18 1:55:00 p. m.] Ana: hola"], [["2018-06-03T13:55:00.000Z", "Ana", "text", "hola"]]],
  ["iOS after a left-to-right mark", ["\u200e[3/6/18 1:55:00 p. m.] Ana: hola"], [["2018-06-03T13:55:00.000Z", "Ana", "text", "hola"]]],
  ["iOS, year first with slashes", ["[2018/06/13, 21:25:15] Ana: 你好"], [["2018-06-13T21:25:15.000Z", "Ana", "text", "你好"]]],
  ["iOS, year in the middle", ["[06/2018/13, 21:25:15] Ana: hi"], [["2018-06-13T21:25:15.000Z", "Ana", "text", "hi"]]],
  ["no comma, a no-break space inside p. m.", ["3/6/2018 1:55 p.\u00a0m. - Ana: hola"], [["2018-06-03T13:55:00.000Z", "Ana", "text", "hola"]]],
  ["a narrow no-break space before PM", ["3/6/18, 1:55\u202fPM - Ana: hi"], [["2018-06-03T13:55:00.000Z", "Ana", "text", "hi"]]],
  ["no comma, day first from a later line (30/12/2020 13:00)", ["30/12/2020 13:00 - Ana: m", "13/1/2021 13:00 - Ana: n"], [
    ["2020-12-30T13:00:00.000Z", "Ana", "text", "m"],
    ["2021-01-13T13:00:00.000Z", "Ana", "text", "n"]
  ]],
  ["year first, dots, 12-hour clock", ["2023.12.31, 9:15 PM - Ana: hi", "2024.01.01, 12:05 AM - Tom: yo"], [
    ["2023-12-31T21:15:00.000Z", "Ana", "text", "hi"],
    ["2024-01-01T00:05:00.000Z", "Tom", "text", "yo"]
  ]],
  ["year first, day before month, on the file's evidence", ["[2023-30-12 21:15] Ana: hi", "[2023-01-12 08:00] Tom: yo"], [
    ["2023-12-30T21:15:00.000Z", "Ana", "text", "hi"],
    ["2023-12-01T08:00:00.000Z", "Tom", "text", "yo"]
  ]],
  ["brackets, dashes, no comma and no seconds", ["[31-12-23 21:15] Ana: hi"], [["2023-12-31T21:15:00.000Z", "Ana", "text", "hi"]]]
]

describe("WhatsApp export line formats of other parsers' test suites", () => {
  for (const [name, lines, expected] of corpus) {
    it(`reads ${name}`, () => {
      expect(read(lines)).toEqual(Either.right(expected))
    })
  }

  it("keeps a message's empty lines and its trailing line, and an empty message as empty text", () => {
    expect(read([
      "06/03/2017, 00:45 - You created group \"ShortChat\"",
      "06/03/2017, 00:45 - Sample User: This is a test message",
      "09/04/2017, 01:50 - +410123456789: How are you?",
      "",
      "Is everything alright?",
      "03/05/17, 18:42 - Luke: "
    ])).toEqual(Either.right([
      ["2017-03-06T00:45:00.000Z", "Sample User", "text", "This is a test message"],
      ["2017-04-09T01:50:00.000Z", "+410123456789", "text", "How are you?\n\nIs everything alright?"],
      ["2017-05-03T18:42:00.000Z", "Luke", "text", ""]
    ]))
  })

  it("keeps a line that starts with a date and time inside the message before it", () => {
    expect(read(["23/06/2018, 01:55 p.m. - Loris: one", "two", "2016-04-29 10:30:00"])).toEqual(Either.right([
      ["2018-06-23T13:55:00.000Z", "Loris", "text", "one\ntwo\n2016-04-29 10:30:00"]
    ]))
  })

  it("reads a line in another frame than the file's as text of the message before it", () => {
    expect(read(["13. 6. 2018. 21:25:15 Ana: the log said", "13/06/2018, 21:20 - Tom: it failed"])).toEqual(Either.right([
      ["2018-06-13T21:25:15.000Z", "Ana", "text", "the log said\n13/06/2018, 21:20 - Tom: it failed"]
    ]))
    expect(read(["13/06/2018, 21:20 - Ana: pasted:", "13. 6. 2018. 21:25:15 Tom: hi"])).toEqual(Either.right([
      ["2018-06-13T21:20:00.000Z", "Ana", "text", "pasted:\n13. 6. 2018. 21:25:15 Tom: hi"]
    ]))
  })

  it("reads the attachment notes those parsers test as media, with the caption after them", () => {
    expect(read([
      "3/6/18, 1:55 p.m. - a: < attached: 00000042-PHOTO-2020-06-07-15-13-20.jpg >",
      "3/6/18, 1:56 p.m. - a: IMG-20210428-WA0001.jpg (file attached)",
      "3/6/18, 1:57 p.m. - a: 2015-08-04-PHOTO-00004762.jpg <\u200eattached>",
      "3/6/18, 1:58 p.m. - a: \u200e4f2680f1db95a8454775cc2eefc95bfc.jpg (Datei angehängt)",
      "Dir auch frohe Ostern.",
      "3/6/18, 1:59 p.m. - a: report.pdf (final)"
    ])).toEqual(Either.right([
      ["2018-06-03T13:55:00.000Z", "a", "media-without-text", ""],
      ["2018-06-03T13:56:00.000Z", "a", "media-without-text", ""],
      ["2018-06-03T13:57:00.000Z", "a", "media-without-text", ""],
      ["2018-06-03T13:58:00.000Z", "a", "caption", "Dir auch frohe Ostern."],
      ["2018-06-03T13:59:00.000Z", "a", "text", "report.pdf (final)"]
    ]))
  })

  it("reads an ambiguous file day first, and month first only when the file says so", () => {
    const lines = ["3/6/18, 1:55 PM - Ana: a", "4/6/18, 1:55 PM - Ana: b"]
    expect(read(lines)).toEqual(Either.right([
      ["2018-06-03T13:55:00.000Z", "Ana", "text", "a"],
      ["2018-06-04T13:55:00.000Z", "Ana", "text", "b"]
    ]))
    expect(read([...lines, "6/13/18, 9:00 AM - Ana: c"])).toEqual(Either.right([
      ["2018-03-06T13:55:00.000Z", "Ana", "text", "a"],
      ["2018-04-06T13:55:00.000Z", "Ana", "text", "b"],
      ["2018-06-13T09:00:00.000Z", "Ana", "text", "c"]
    ]))
    expect(read(lines, { dateOrder: "mdy" })).toEqual(Either.right([
      ["2018-03-06T13:55:00.000Z", "Ana", "text", "a"],
      ["2018-04-06T13:55:00.000Z", "Ana", "text", "b"]
    ]))
  })

  it("names a time of day that does not exist", () => {
    expect(Either.mapLeft(parseWhatsAppExport("3/6/18, 13:55 PM - Ana: a"), (e) => e.message)).toEqual(Either.left(
      "line 1: \"3/6/18, 13:55 PM -\" has no such time of day; the file may be damaged"
    ))
  })
})

const pad = (n: number) => String(n).padStart(2, "0")
const twelve = (h: number) => `${h % 12 === 0 ? 12 : h % 12}:`

/** A writer per frame and locale: how the app writes a local wall time, and the date order to read it in. */
const writers: ReadonlyArray<readonly [name: string, order: "dmy" | "mdy", write: (d: Date) => string]> = [
  ["Android dmy", "dmy", (d) => `${d.getUTCDate()}/${d.getUTCMonth() + 1}/${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} - `],
  ["Android US", "mdy", (d) =>
    `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${String(d.getUTCFullYear()).slice(2)}, ${twelve(d.getUTCHours())}${pad(d.getUTCMinutes())}` +
    `\u202f${d.getUTCHours() < 12 ? "AM" : "PM"} - `],
  ["iOS dots", "dmy", (d) => `[${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00] `],
  ["spaced dots, no dash", "dmy", (d) => `${d.getUTCDate()}. ${d.getUTCMonth() + 1}. ${d.getUTCFullYear()}. ${d.getUTCHours()}:${pad(d.getUTCMinutes())} `],
  ["Finnish klo", "dmy", (d) => `${d.getUTCDate()}.${d.getUTCMonth() + 1}.${d.getUTCFullYear()} klo ${d.getUTCHours()}.${pad(d.getUTCMinutes())} - `],
  ["colon", "dmy", (d) => `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${String(d.getUTCFullYear()).slice(2)} ${pad(d.getUTCHours())}.${pad(d.getUTCMinutes())}.00: `],
  ["year first, es 12 h", "dmy", (d) =>
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${twelve(d.getUTCHours())}${pad(d.getUTCMinutes())} ${d.getUTCHours() < 12 ? "a. m." : "p. m."} - `]
]

describe("WhatsApp stamps, for any minute of the century", () => {
  const minute = fc.integer({ min: Date.UTC(2000, 0, 1) / 60_000, max: Date.UTC(2099, 11, 31, 23, 59) / 60_000 })
  test.prop([minute, fc.constantFrom(...writers)], { numRuns: propertyRuns() })("read back the minute each writer wrote", (at, [, order, write]) => {
    const wall = new Date(at * 60_000)
    expect(read([`${write(wall)}Ana: text: kept`], { dateOrder: order })).toEqual(Either.right([
      [wall.toISOString(), "Ana", "text", "text: kept"]
    ]))
  })
})
