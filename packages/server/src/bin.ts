/** Entry point of the `verbatim` command (`npm run verbatim -- …`, `npm start` runs `serve`). */
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { run } from "./Cli.js"
import { withTerminalStyling } from "./PlainConsole.js"

run(process.argv).pipe(
  withTerminalStyling,
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true })
)
