/**
 * The CLI's console without ANSI styling where no one sees colour: @effect/cli styles its help
 * and errors unconditionally, so text piped to a file or another program would carry escapes.
 */
import { Console, Effect } from "effect"

/** SGR escape sequences (colour, bold), the only ones the CLI's output carries. */
const styling = /\u001b\[[0-9;]*m/g

/** `text` without styling. */
export const plain = (text: string): string => text.replace(styling, "")

const strip = (args: ReadonlyArray<unknown>) => args.map((a) => (typeof a === "string" ? plain(a) : a))

/** A console writing `log` to one stream and `error` to another, styled only where `styled` says so. */
export const make = (
  base: Console.Console,
  styled: { readonly stdout: boolean; readonly stderr: boolean }
): Console.Console => ({
  ...base,
  log: (...args) => base.log(...(styled.stdout ? args : strip(args))),
  info: (...args) => base.info(...(styled.stdout ? args : strip(args))),
  error: (...args) => base.error(...(styled.stderr ? args : strip(args))),
  warn: (...args) => base.warn(...(styled.stderr ? args : strip(args)))
})

/** Run `effect` with styling kept only on the streams that are terminals. */
export const withTerminalStyling = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Console.consoleWith(Effect.succeed), (base) =>
    Effect.withConsole(effect, make(base, { stdout: process.stdout.isTTY === true, stderr: process.stderr.isTTY === true })))
