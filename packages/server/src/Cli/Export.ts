/**
 * `verbatim export markdown DIR`: every user's notes as Markdown pages under DIR, a folder per
 * user, a page per person and one for the user's own notes; running it again updates the
 * pages in place and removes the pages it wrote of people who no longer have notes. Times are
 * read in each user's time zone (`TimeZones`). One page is written at a time, its notes read a
 * keyset page at a time (`Export/Write.ts`).
 */
import { Args, Command } from "@effect/cli"
import { Console, Effect } from "effect"
import { CliError } from "./CliError.js"
import { exportMarkdown } from "./Export/Write.js"

const markdown = Command.make("markdown", { dir: Args.directory({ name: "DIR" }) }, ({ dir }) =>
  Effect.gen(function*() {
    const { notes, pages, result } = yield* exportMarkdown(dir)
    if (result._tag === "NotOurs") {
      return yield* new CliError({
        message: `${result.path} exists and was not written by the export; move it, or export to another folder. Nothing was written`
      })
    }
    yield* Console.log(
      `exported ${notes} note(s) to ${pages} page(s) in ${dir}: ` +
        `${result.written} written, ${result.unchanged} unchanged, ${result.removed} removed`
    )
  })).pipe(Command.withDescription("Write every note as Markdown, a page per person (Obsidian-compatible front matter)"))

export const command = Command.make("export").pipe(
  Command.withDescription("Export the notes"),
  Command.withSubcommands([markdown])
)
