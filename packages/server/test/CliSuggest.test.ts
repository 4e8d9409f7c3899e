/** A misspelt command is answered with the one it most likely meant, and `help` is `--help`. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { subcommands } from "../src/Cli.js"
import { nearest } from "../src/Cli/Suggest.js"
import { runCli, tempDir } from "./CliHarness.js"

const names = Object.keys(subcommands)

describe("a misspelt command", () => {
  it("is matched to the one command a slip or two away, or that it begins; otherwise to none", () => {
    expect(["serv", "sever", "rebuid", "expotr", "acounting", "retrnscribe", "REPLAY", "ret", "xyz", "s", "importer"].map((w) => nearest(w, names)))
      .toEqual(["serve", null, "rebuild", "export", "accounting", "retranscribe", "replay", null, null, null, "import"])
  })

  it.scoped("says which command it meant and exits 1; `help` shows the help", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("verbatim-suggest-")
      const env = { VERBATIM_DATA_DIR: dir }
      expect(yield* runCli(["serv"], env)).toEqual({
        code: 1,
        stdout: "",
        stderr: "verbatim: there is no command \"serv\": did you mean \"serve\"? (`verbatim --help` lists them)\n"
      })
      const [help, dashed] = [yield* runCli(["help"], env), yield* runCli(["--help"], env)]
      expect(help).toEqual(dashed)
      expect(help.code).toBe(0)
    }), 60_000)
})
