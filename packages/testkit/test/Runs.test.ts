import { describe, expect, it } from "@effect/vitest"
import { propertyRuns } from "../src/Runs.js"
describe("propertyRuns", () => { it("is at least the local count", () => { expect(propertyRuns(5)).toBeGreaterThanOrEqual(5) }) })
