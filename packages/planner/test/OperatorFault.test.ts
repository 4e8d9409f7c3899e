/** Which model failures are the operator's to cure: refused key, missing permission, unknown model, billing. */
import { describe, expect, it } from "@effect/vitest"
import { LanguageModelError, operatorFault } from "../src/LanguageModelError.js"

const fault = (status: number | undefined, message = "fake") =>
  operatorFault(new LanguageModelError({ reason: "invalid-request", message, status }))

describe("operatorFault", () => {
  it("reads 401, 402, 403 and 404 as the operator's, and a 400 only when it is about billing", () => {
    expect([401, 402, 403, 404, 400, 408, 413, 429, 500, 529].map((status) => [status, fault(status)])).toEqual([
      [401, "credentials"],
      [402, "billing"],
      [403, "permission"],
      [404, "unknown-model"],
      [400, null],
      [408, null],
      [413, null],
      [429, null],
      [500, null],
      [529, null]
    ])
    expect(fault(400, "Your credit balance is too low to access the Anthropic API.")).toBe("billing")
    expect(fault(403, "billing_error: this organization cannot be billed")).toBe("billing")
    expect(fault(undefined)).toBe(null)
  })
})
