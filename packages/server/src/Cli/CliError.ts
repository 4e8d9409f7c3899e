/** A command that cannot do what it was asked; the message says what went wrong and what to do. */
import { Data } from "effect"

export class CliError extends Data.TaggedError("CliError")<{ readonly message: string }> {}
