/** The specification helper itself: it passes exactly when the decision is the one stated. */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { DeciderSpec, SpecificationFailed } from "../src/DeciderSpec.js"

type Event = { readonly _tag: "Added"; readonly n: number }
const counter = DeciderSpec.for<number, number, Event, string>({
  initialState: 0,
  evolve: (total, e) => total + e.n,
  decide: (total, n) => (total + n > 10 ? Either.left(`over: ${total + n}`) : Either.right([{ _tag: "Added", n }]))
})

describe("DeciderSpec", () => {
  it("folds the given events and compares the decided events whole", () => {
    counter.given([{ _tag: "Added", n: 4 }]).when(3).then([{ _tag: "Added", n: 3 }])
    expect(() => counter.given([]).when(3).then([{ _tag: "Added", n: 4 }])).toThrow(
      new SpecificationFailed(`expected events\n[\n  {\n    "_tag": "Added",\n    "n": 4\n  }\n]\nbut got\n[\n  {\n    "_tag": "Added",\n    "n": 3\n  }\n]`)
    )
  })

  it("states refusals, and fails when events were decided instead", () => {
    counter.given([{ _tag: "Added", n: 9 }]).when(2).thenRejects("over: 11")
    expect(() => counter.given([]).when(2).thenRejects("over: 2")).toThrow(SpecificationFailed)
    expect(() => counter.given([{ _tag: "Added", n: 9 }]).when(2).thenRejects("over: 12")).toThrow(SpecificationFailed)
  })
})
