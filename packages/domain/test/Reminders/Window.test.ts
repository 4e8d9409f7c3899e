/** How a due reminder goes out: WhatsApp's 24-hour window decides between a message, the template and holding it. */
import { describe, expect, it } from "vitest"
import { routeOf } from "../../src/Reminders/Window.js"

const windowMillis = 24 * 3_600_000

describe("the route of a due reminder", () => {
  const now = Date.parse("2026-01-03T09:00:00Z")

  it("is a message within 24 hours of the user's last message on WhatsApp, and always elsewhere", () => {
    expect(routeOf("whatsapp", now - windowMillis + 1, now, false)).toBe("message")
    expect(routeOf("telegram", null, now, false)).toBe("message")
    expect(routeOf("web", now - 10 * windowMillis, now, false)).toBe("message")
  })

  it("past the window (or with no message heard at all) is the template when there is one, else held", () => {
    expect(routeOf("whatsapp", now - windowMillis, now, true)).toBe("template")
    expect(routeOf("whatsapp", now - windowMillis, now, false)).toBe("hold")
    expect(routeOf("whatsapp", null, now, true)).toBe("template")
    expect(routeOf("whatsapp", null, now, false)).toBe("hold")
  })
})
