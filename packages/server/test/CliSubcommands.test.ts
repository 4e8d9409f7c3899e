/** The command line loads only the subcommand its first argument names, and every one otherwise. */
import { Command } from "@effect/cli"
import { describe, expect, it } from "@effect/vitest"
import { Effect, HashSet } from "effect"
import { type Name, type Subcommand, subcommands, subcommandsFor } from "../src/Cli.js"

const every = Object.keys(subcommands)

/** A command's names. `any` for its arguments: each subcommand's handler takes its own. */
const namesOf = (command: Subcommand): ReadonlyArray<string> =>
  HashSet.toValues(Command.getNames(command as Command.Command<Name, never, unknown, any>))

describe("Cli subcommands", () => {
  it("loads the one subcommand a command line starts with", () => {
    expect(subcommandsFor(["rebuild", "--verify"])).toEqual(["rebuild"])
    expect(subcommandsFor(["serve"])).toEqual(["serve"])
    // The first argument decides, even where a later one names another command.
    expect(subcommandsFor(["import", "rebuild"])).toEqual(["import"])
  })

  it("loads every subcommand for the root's help, a misspelt command or an option first", () => {
    expect(subcommandsFor([])).toEqual(every)
    expect(subcommandsFor(["--help"])).toEqual(every)
    expect(subcommandsFor(["rebuld"])).toEqual(every)
    expect(subcommandsFor(["--log-level", "debug", "rebuild"])).toEqual(every)
    // Not an own key of the table, though every object has it.
    expect(subcommandsFor(["constructor"])).toEqual(every)
  })

  it.effect("each entry loads the command of its own name", () =>
    Effect.gen(function*() {
      for (const name of every as Array<Name>) {
        const command = yield* Effect.promise((): Promise<Subcommand> => subcommands[name]())
        expect([name, namesOf(command)]).toEqual([name, [name]])
      }
    }), 60_000)
})
