import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either } from "effect"
import { attachment } from "../src/Attachment.js"
import { decodeWhatsApp } from "../src/Inbound/Decode.js"
import type { Inbound } from "../src/Inbound/Inbound.js"
import { normaliseWhatsApp } from "../src/Inbound/normaliseWhatsApp.js"
import { webhookFixture } from "./fixtures.js"

const at = (unixSeconds: number) => DateTime.unsafeMake(unixSeconds * 1000)

const normalise = (file: string): ReadonlyArray<Inbound> =>
  Either.match(decodeWhatsApp(webhookFixture("whatsapp", file)), {
    onLeft: (error) => {
      throw new Error(error.message)
    },
    onRight: normaliseWhatsApp
  })

const userA = { provider: "whatsapp", senderId: "15550001111", chatId: "15550001111" } as const
const pywa = { provider: "whatsapp", senderId: "972987654321", chatId: "972987654321" } as const

const text = (from: typeof userA | typeof pywa, name: string, id: string, body: string, sentAt: number) => ({
  _tag: "NewMessage" as const,
  ...from,
  providerMessageId: id,
  senderName: name,
  text: body,
  kind: "text" as const,
  forwardedFrom: null,
  replyTo: null,
  attachments: [], links: [], mediaGroup: null,
  sentAt: at(sentAt)
})

describe("WhatsApp fixtures", () => {
  it("01 text message, sender name from contacts", () => {
    expect(normalise("01_text_meta_docs.json")).toEqual([
      text(userA, "Test User A", "wamid.FAKE-TEXT-0001", "Does it come in another color?", 1749416383)
    ])
  })

  it("02 image with caption", () => {
    expect(normalise("02_image_with_caption_meta_docs.json")).toEqual([{
      ...text(userA, "Test User A", "wamid.FAKE-IMAGE-0001", "Taj Mahal", 1744344496),
      kind: "caption",
      attachments: [attachment("image", "1003383421387256", { mimeType: "image/jpeg", uniqueId: "SfInY0gGKTsJlUWbwxC1k+FAD0FZHvzwfpvO0zX0GUI=" })], links: [], mediaGroup: null
    }])
  })

  it("03 voice note: media without text, awaiting transcription", () => {
    expect(normalise("03_audio_voice_note_pywa.json")).toEqual([{
      ...text(pywa, "Test Name", "wamid.xyzxyz", "", 1697043473),
      kind: "media-without-text",
      attachments: [attachment("voice", "1234567890987654321", { mimeType: "audio/ogg; codecs=opus", uniqueId: "m04pFf2ERdaopTyFkGPA0+bX3i+YY2dYgVFwOgDLSDI=" })], links: [], mediaGroup: null
    }])
  })

  it("03b forwarded audio file: forwarded, not a reply", () => {
    expect(normalise("03b_audio_forwarded_file_pywa.json")).toEqual([{
      ...text(pywa, "Test Name", "wamid.xyzxyz", "", 1697043509),
      kind: "media-without-text",
      forwardedFrom: "forwarded",
      attachments: [attachment("audio", "1234567890987654321", { mimeType: "audio/ogg; codecs=opus", uniqueId: "E3dxS/PdYZE7ppA3pQ4mpCFaXBJ8pX4SRN/dsfvds/iPGA=" })], links: [], mediaGroup: null
    }])
  })

  it("04 button reply is an answer carrying the button id", () => {
    expect(normalise("04_interactive_button_reply_meta_docs.json")).toEqual([{
      _tag: "Answer",
      ...userA,
      providerMessageId: "wamid.FAKE-BUTTON-0001",
      callbackId: null,
      askedIn: null,
      data: "cancel-button",
      answeredAt: at(1750025136)
    }])
  })

  it("04b button reply (pywa)", () => {
    expect(normalise("04b_interactive_button_reply_pywa.json")).toEqual([{
      _tag: "Answer",
      ...pywa,
      providerMessageId: "wamid.xyzxyz",
      callbackId: null,
      askedIn: null,
      data: "callback_data",
      answeredAt: at(1698266730)
    }])
  })

  it("05 list reply is an answer carrying the row id", () => {
    expect(normalise("05_interactive_list_reply_meta_docs.json")).toEqual([{
      _tag: "Answer",
      ...userA,
      providerMessageId: "wamid.FAKE-LIST-0001",
      callbackId: null,
      askedIn: null,
      data: "priority_express",
      answeredAt: at(1749854575)
    }])
  })

  it("06 statuses are ignored (sent, read, failed)", () => {
    expect([
      normalise("06_status_sent_meta_docs.json"),
      normalise("06b_status_read_pywa.json"),
      normalise("06c_status_failed_pywa.json")
    ]).toEqual([
      [{ _tag: "Ignored", provider: "whatsapp", kind: "status:sent", reason: "status update: sent" }],
      [{ _tag: "Ignored", provider: "whatsapp", kind: "status:read", reason: "status update: read" }],
      [{ _tag: "Ignored", provider: "whatsapp", kind: "status:failed", reason: "status update: failed" }]
    ])
  })

  it("07 batched changes: both messages kept, in order (the source gives both the same id)", () => {
    const sender = { provider: "whatsapp", senderId: "PHONE_NUMBER", chatId: "PHONE_NUMBER" } as const
    expect(normalise("07_batched_two_changes_netflie.json")).toEqual([
      { ...text(userA, "NAME", "wamid.ID", "MESSAGE_BODY", 1669233778), ...sender },
      { ...text(userA, "NAME", "wamid.ID", "MESSAGE_BODY2", 1669233779), ...sender }
    ])
  })

  it("08 forwarded text", () => {
    expect(normalise("08_text_forwarded_pywa.json")).toEqual([
      { ...text(pywa, "Test Name", "wamid.xyzxyz", "forwarded text", 1697044815), forwardedFrom: "forwarded" }
    ])
  })

  it("09 frequently forwarded text", () => {
    expect(normalise("09_text_frequently_forwarded_pywa.json")).toEqual([
      { ...text(pywa, "Test Name", "wamid.xyzxyz", "text forwarded many times", 1697044968), forwardedFrom: "frequently forwarded" }
    ])
  })

  it("10 reaction is ignored", () => {
    expect(normalise("10_reaction_pywa.json")).toEqual([{ _tag: "Ignored", provider: "whatsapp", kind: "reaction", reason: "message type not handled: reaction" }])
  })

  it("11 reply: replyTo is the quoted message id", () => {
    expect(normalise("11_text_reply_context_pywa.json")).toEqual([
      { ...text(pywa, "Test Name", "wamid.xyzxyz", "replied text", 1697044746), replyTo: "wamid.xyzxyz==" }
    ])
  })

  it("12 edit of an image caption targets the original message", () => {
    expect(normalise("12_edit_image_caption_pywa.json")).toEqual([{
      _tag: "Edit",
      provider: "whatsapp",
      senderId: "16505551234",
      chatId: "16505551234",
      providerMessageId: "wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=",
      // The fixture's contact has another wa_id than the sender.
      senderName: null,
      kind: "caption",
      text: "Updated image caption",
      attachments: [attachment("image", "1234567890", { mimeType: "image/jpeg", uniqueId: "a1b2c3d4e5f6..." })], links: [], mediaGroup: null,
      forwardedFrom: null,
      replyTo: "M0",
      sentAt: at(1749854575),
      editKey: "edit:wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=",
      editedAt: at(1749854575)
    }])
  })
})
