/** `verbatim demo [--record]` (what `npm run demo` runs): see `Demo.ts`. */
import { Command, Options } from "@effect/cli"
import { demo, record } from "../Demo.js"

export const command = Command.make(
  "demo",
  { record: Options.boolean("record").pipe(Options.withDescription("Re-write the demo's cassette from demo/plan.json")) },
  (options) => (options.record ? record : demo)
).pipe(Command.withDescription("Run the offline end-to-end demo on a temporary store with recorded model answers"))
