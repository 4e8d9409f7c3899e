/**
 * `verbatim export markdown DIR`: every user's notes as Markdown pages under DIR, a folder per
 * user, a page per person and one for the user's own notes; running it again updates the
 * pages in place and removes the pages it wrote of people who no longer have notes. Times are
 * read in each user's time zone (`TimeZones`).
 */
import { Args, Command } from "@effect/cli"
import { Notebook } from "@verbatim/projections/Notebook"
import { Console, Effect } from "effect"
import { CliError } from "./CliError.js"
import { TimeZones } from "../TimeZones.js"
import { pagesOf, sync } from "./Export/Pages.js"

const markdown = Command.make("markdown", { dir: Args.directory({ name: "DIR" }) }, ({ dir }) =>
  Effect.gen(function*() {
    const model = yield* Notebook
    const users = yield* model.notebookUsers
    const notebooks = yield* Effect.forEach(users, (user) => model.notebook(user))
    const zones = yield* TimeZones
    const pages = pagesOf(notebooks, yield* Effect.forEach(users, zones.zoneOf))
    const result = yield* Effect.try({
      try: () => sync(dir, pages),
      catch: (error) => new CliError({ message: `cannot export to ${dir}: ${error instanceof Error ? error.message : String(error)}` })
    })
    if (result._tag === "NotOurs") {
      return yield* new CliError({
        message: `${result.path} exists and was not written by the export; move it, or export to another folder. Nothing was written`
      })
    }
    const notes = notebooks.reduce((n, b) => n + b.unattached.length + b.people.reduce((m, p) => m + p.notes.length, 0), 0)
    yield* Console.log(
      `exported ${notes} note(s) to ${pages.size} page(s) in ${dir}: ` +
        `${result.written} written, ${result.unchanged} unchanged, ${result.removed} removed`
    )
  })).pipe(Command.withDescription("Write every note as Markdown, a page per person (Obsidian-compatible front matter)"))

export const command = Command.make("export").pipe(
  Command.withDescription("Export the notes"),
  Command.withSubcommands([markdown])
)
