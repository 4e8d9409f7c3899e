/**
 * How `serve` writes its logs: JSON lines for a pipe or a log collector, readable text lines on a
 * terminal. `VERBATIM_LOG_FORMAT` (or `serve --log-format`) is `json`, `text` or `auto` (the
 * default: text when stdout is a terminal, JSON otherwise).
 */
import { Config, Context, HashMap, Layer, Logger } from "effect"

/** What the setting may say. */
export const choices = ["auto", "json", "text"] as const
export type Choice = (typeof choices)[number]

/** The format in use. */
export class LogFormat extends Context.Tag("@verbatim/server/LogFormat")<LogFormat, "json" | "text">() {}

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

/** The format as a service, and the logger that writes it. */
export const layer = (format: "json" | "text"): Layer.Layer<LogFormat> =>
  Layer.merge(
    Layer.succeed(LogFormat, format),
    format === "json" ? Logger.json : Logger.replace(Logger.defaultLogger, textLogger)
  )
