import { describe, expect, it } from "@effect/vitest"
import { FitError } from "@verbatim/domain/FitPrompt"
import { truncationMarker } from "@verbatim/domain/TruncateText"
import { Duration, Either } from "effect"
import { buildRequest, chunkMessages, type RequestSettings, toolPromptText } from "../src/BuildRequest.js"
import { recordPlanToolV1 } from "../src/PlanningTool.js"
import { contactLine, frame, messageLine, renderUserContent } from "../src/RenderRequest.js"
import { anna, contactsOfAlice, countChars, errorFields, first, lee, message, omar, second, session, third } from "./fixtures.js"

const system = "SYSTEM PROMPT"
const fixedCost = system.length + toolPromptText(recordPlanToolV1).length

const settings = (overrides: Partial<RequestSettings> = {}): RequestSettings => ({
  maxTokens: 4096,
  timeout: Duration.seconds(60),
  promptBudget: 1_000_000,
  contentBudget: 1_000_000,
  contactReserve: 0,
  maxContacts: 100,
  tool: recordPlanToolV1,
  zone: null,
  count: countChars,
  ...overrides
})

describe("buildRequest", () => {
  it("keeps every contact, most recently used first, when everything fits", () => {
    const built = Either.getOrThrow(buildRequest(system, contactsOfAlice, session, settings()))
    expect(built).toEqual({
      request: {
        system,
        tool: recordPlanToolV1,
        userContent: renderUserContent([omar, anna, lee], session, null),
        maxTokens: 4096,
        timeout: Duration.seconds(60)
      },
      chunk: { fromSeq: 1, toSeq: 3 },
      truncation: { contactsDropped: 0, cutSeq: null }
    })
  })

  it("drops contacts whole, least recently used first, and never a message", () => {
    const full = renderUserContent(contactsOfAlice, session, null).length
    const short = fixedCost + full - contactLine(lee).length - contactLine(anna).length
    const keepsOmar = Either.getOrThrow(buildRequest(system, contactsOfAlice, session, settings({ promptBudget: short })))
    expect(keepsOmar.request.userContent).toBe(renderUserContent([omar], session, null))
    expect(keepsOmar.truncation).toEqual({ contactsDropped: 2, cutSeq: null })
    const keepsNone = Either.getOrThrow(buildRequest(system, contactsOfAlice, session, settings({ promptBudget: short - 1 })))
    expect(keepsNone.request.userContent).toBe(renderUserContent([], session, null))
    expect(keepsNone.truncation).toEqual({ contactsDropped: 3, cutSeq: null })
  })

  it("shows at most maxContacts contacts and counts the rest as dropped", () => {
    const built = Either.getOrThrow(buildRequest(system, contactsOfAlice, session, settings({ maxContacts: 1 })))
    expect(built.request.userContent).toBe(renderUserContent([omar], session, null))
    expect(built.truncation).toEqual({ contactsDropped: 2, cutSeq: null })
  })

  it("cuts the largest message as a last resort, keeping its line valid JSON and marked", () => {
    const long = message(2, "x".repeat(500))
    const messages = [message(1, "short"), long] as const
    const others = renderUserContent([], messages, null).length - messageLine(long).length
    const room = 200
    const built = Either.getOrThrow(buildRequest(system, [anna], messages, settings({ promptBudget: fixedCost + others + room })))
    // The cut line fits the room fitPrompt left, less the two quotes its escaped-text count adds.
    const overhead = messageLine({ ...long, text: "", cut: true }).length
    const kept = room - overhead - 2 - truncationMarker.length
    const cut = { ...long, text: "x".repeat(kept) + truncationMarker, cut: true }
    expect(built.request.userContent).toBe(renderUserContent([], [messages[0], cut], null))
    expect(built.truncation).toEqual({ contactsDropped: 1, cutSeq: 2 })
  })

  it("fails with FitError when the messages cannot fit even with one cut", () => {
    const budget = fixedCost + 10
    const required = fixedCost + renderUserContent([], session, null).length
    expect(Either.mapLeft(buildRequest(system, [anna], session, settings({ promptBudget: budget })), errorFields)).toEqual(
      Either.left(errorFields(
        new FitError({
          reason: "required-exceeds-budget",
          budget,
          required,
          message: `The parts that must survive take ${required} tokens; cutting one message cannot bring them within the budget of ${budget}`
        })
      ))
    )
  })
})

describe("chunkMessages", () => {
  const fixed = (frame.contactsOpen + frame.contactsClose + frame.messagesOpen(null) + frame.messagesClose).length +
    frame.closing(session).length + "3".length

  it("fills consecutive chunks within the content budget less the frame and the contact reserve", () => {
    const contentBudget = fixed + 50 + messageLine(first).length + messageLine(second).length
    expect(chunkMessages(session, settings({ contentBudget, contactReserve: 50 }))).toEqual([[first, second], [third]])
    expect(chunkMessages(session, settings({ contentBudget: contentBudget - 1, contactReserve: 50 }))).toEqual([
      [first],
      [second],
      [third]
    ])
  })

  it("puts a message larger than any chunk alone, cut and marked, its line within the budget", () => {
    const long = message(2, "y".repeat(400))
    const messages = [message(1, "a"), long, message(3, "b")] as const
    const fixedHere = (frame.contactsOpen + frame.contactsClose + frame.messagesOpen(null) + frame.messagesClose).length +
      frame.closing(messages).length + 1
    const budget = 250
    const chunks = chunkMessages(messages, settings({ contentBudget: fixedHere + budget }))
    const overhead = messageLine({ ...long, text: "", cut: true }).length
    const kept = budget - overhead - 2 - truncationMarker.length
    expect(chunks).toEqual([[messages[0]], [{ ...long, text: "y".repeat(kept) + truncationMarker, cut: true }], [messages[2]]])
  })
})
