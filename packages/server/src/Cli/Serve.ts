/** `verbatim serve`: the HTTP service with its scheduler and outbox (what `npm start` runs). */
import { Command, Options } from "@effect/cli"
import { Effect } from "effect"
import * as LogFormat from "../LogFormat.js"
import { serve } from "../Main.js"

/** `--log-format`, else `VERBATIM_LOG_FORMAT`, else `auto`. */
const logFormat = Options.choice("log-format", LogFormat.choices).pipe(
  Options.withDescription("json, text, or auto: text on a terminal, JSON lines when piped"),
  Options.withFallbackConfig(LogFormat.config)
)

export const command = Command.make("serve", { logFormat }, ({ logFormat }) =>
  Effect.suspend(() => serve(LogFormat.resolve(logFormat, process.stdout.isTTY === true)))).pipe(
    Command.withDescription("Run the service: webhooks, read API, scheduler and reply outbox")
  )
