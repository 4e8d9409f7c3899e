/** A store the CLI cannot reach is one line: where, the driver's reason, what to check; never a stack. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createServer } from "node:net"
import { runCli } from "./CliHarness.js"

/** A loopback port nothing listens on (taken from the system, then released). */
const closedPort = Effect.promise(() =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 1))
    })
  })
)

describe("a PostgreSQL URL that cannot connect", () => {
  it.live("names host, port and database and the driver's reason, never the password, and exits 1", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const run = yield* runCli(["events"], { VERBATIM_DATABASE_URL: `postgres://verbatim:hunter2@127.0.0.1:${port}/notes` })
      expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
        code: 1,
        stdout: "",
        stderr: `verbatim: cannot connect to PostgreSQL at 127.0.0.1:${port}, database notes: connect ECONNREFUSED 127.0.0.1:${port}; ` +
          "check VERBATIM_DATABASE_URL and that the server accepts connections\n"
      })
    }))
})
