/** Entry point of the `verbatim` command (`npm run verbatim -- …`, `npm start` runs `serve`). */
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { run } from "./Cli.js"
import { withTerminalStyling } from "./PlainConsole.js"
import { privateUmask } from "./PrivateFiles.js"

// Whatever the umask it was started with, what the service writes (the database and its journal,
// the token, backups, exports) is readable by its own account alone.
process.umask(privateUmask)

run(process.argv).pipe(
  withTerminalStyling,
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true })
)
