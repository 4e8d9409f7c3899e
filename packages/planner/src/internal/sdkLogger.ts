/** The Anthropic SDK's logger on the Effect logger: its warnings and errors logged once each, the rest at debug. */
import type Anthropic from "@anthropic-ai/sdk"
import { Effect, Runtime } from "effect"

type Logger = NonNullable<Anthropic["logger"]>

const text = (message: string, rest: ReadonlyArray<unknown>) =>
  [message, ...rest.map((r) => (r instanceof Error ? r.message : typeof r === "string" ? r : JSON.stringify(r)))].join(" ")

/** A logger for the SDK client that logs through `runtime`, each distinct warning or error once per client. */
export const sdkLogger = (runtime: Runtime.Runtime<never>, model: string): Logger => {
  const seen = new Set<string>()
  const log = (effect: (line: string) => Effect.Effect<void>, once: boolean) => (message: string, ...rest: Array<unknown>) => {
    const line = text(message, rest)
    if (once && seen.has(line)) return
    seen.add(line)
    Runtime.runSync(runtime)(effect(line).pipe(Effect.annotateLogs({ source: "anthropic-sdk", model })))
  }
  return {
    error: log(Effect.logError, true),
    warn: log(Effect.logWarning, true),
    info: log(Effect.logDebug, false),
    debug: log(Effect.logDebug, false)
  }
}
