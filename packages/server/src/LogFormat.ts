/**
 * How `serve` writes its logs: JSON lines for a pipe or a log collector, readable text lines on a
 * terminal. `VERBATIM_LOG_FORMAT` (or `serve --log-format`) is `json`, `text` or `auto` (the
 * default: text when stdout is a terminal, JSON otherwise). On a terminal the start block comes
 * first: information logged while the server starts is held until the block is out (warnings and
 * errors never are), and whatever is held is written when the server stops before it started.
 */
import { Config, Context, Effect, HashMap, Layer, Logger, LogLevel } from "effect"

/** What the setting may say. */
export const choices = ["auto", "json", "text"] as const
export type Choice = (typeof choices)[number]

/** The format in use, and what writes the information held back for the start block. */
export class LogFormat extends Context.Tag("@verbatim/server/LogFormat")<LogFormat, {
  readonly format: "json" | "text"
  /** Writes what was held and holds no more: called once the start block is printed. */
  readonly started: Effect.Effect<void>
}>() {}

/** `VERBATIM_LOG_FORMAT`, `auto` unless set. */
export const config: Config.Config<Choice> = Config.literal(...choices)("VERBATIM_LOG_FORMAT").pipe(Config.withDefault("auto" as const))

/** The format a choice comes to, given whether stdout is a terminal. */
export const resolve = (choice: Choice, terminal: boolean): "json" | "text" => choice === "auto" ? (terminal ? "text" : "json") : choice

const two = (n: number) => String(n).padStart(2, "0")

/** A field's value as it reads in a line: strings bare unless they hold a space, the rest as JSON. */
const field = (value: unknown): string =>
  typeof value === "string" ? (/[\s"=]/.test(value) ? JSON.stringify(value) : value) : JSON.stringify(value) ?? String(value)

/** One log entry as a line of text: `12:00:01 INFO webhook provider=telegram outcome=accepted`. */
export const textLine = (entry: {
  readonly date: Date
  readonly level: string
  readonly message: unknown
  readonly annotations: ReadonlyArray<readonly [string, unknown]>
}): string => {
  const message = Array.isArray(entry.message) ? entry.message.map(String).join(" ") : String(entry.message)
  const time = `${two(entry.date.getHours())}:${two(entry.date.getMinutes())}:${two(entry.date.getSeconds())}`
  return [time, entry.level, message, ...entry.annotations.map(([key, value]) => `${key}=${field(value)}`)].join(" ")
}

/** The text logger, writing to stdout. */
export const textLogger: Logger.Logger<unknown, void> = Logger.withConsoleLog(
  Logger.make(({ annotations, date, logLevel, message }) =>
    textLine({ date, level: logLevel.label, message, annotations: HashMap.toEntries(annotations) })
  )
)

/** The text logger, holding entries below a warning while `held` is a list. */
const holding = (held: { entries: Array<Logger.Logger.Options<unknown>> | null }): Logger.Logger<unknown, void> =>
  Logger.make((entry) => {
    if (held.entries !== null && LogLevel.lessThan(entry.logLevel, LogLevel.Warning)) held.entries.push(entry)
    else textLogger.log(entry)
  })

/** The format as a service, and the logger that writes it. */
export const layer = (format: "json" | "text"): Layer.Layer<LogFormat> =>
  format === "json"
    ? Layer.merge(Layer.succeed(LogFormat, { format, started: Effect.void }), Logger.json)
    : Layer.unwrapScoped(Effect.gen(function*() {
      const held: { entries: Array<Logger.Logger.Options<unknown>> | null } = { entries: [] }
      const started = Effect.sync(() => {
        const entries = held.entries ?? []
        held.entries = null
        for (const entry of entries) textLogger.log(entry)
      })
      yield* Effect.addFinalizer(() => started)
      return Layer.merge(Layer.succeed(LogFormat, { format, started }), Logger.replace(Logger.defaultLogger, holding(held)))
    }))
