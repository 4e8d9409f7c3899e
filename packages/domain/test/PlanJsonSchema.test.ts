import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { Plan } from "../src/Plan.js"
import { planInputSchema } from "../src/PlanJsonSchema.js"

describe("plan JSON schema", () => {
  it("is an inline object root with no $schema or $ref", () => {
    expect(planInputSchema.type).toBe("object")
    expect(planInputSchema.required).toEqual(["people", "unattached", "unclear", "botMessages"])
    const text = JSON.stringify(planInputSchema)
    expect(text).not.toContain("$ref")
    expect(text).not.toContain("$schema")
    expect(text).not.toContain("$defs")
  })

  it("declares seqs as inline integers and keeps descriptions", () => {
    const botMessages = planInputSchema.properties["botMessages"]
    expect(botMessages).toEqual({
      type: "array",
      items: { type: "integer" },
      description: "Seqs of messages wholly addressed to the bot (commands, greetings to the bot), holding no content."
    })
  })

  it("decodes a plan whose values a refinement would reject (repair happens later)", () => {
    const decoded = Schema.decodeUnknownSync(Plan)({
      people: [{ contactId: null, name: "Alice", notes: [{ sourceItemSeqs: [1.5, -3, 99], directives: [""] }] }],
      unattached: [],
      unclear: [],
      botMessages: [0]
    })
    expect(decoded.people[0]?.notes[0]?.sourceItemSeqs).toEqual([1.5, -3, 99])
  })
})
