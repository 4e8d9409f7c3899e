/** The one list of test projects; `vitest.config.ts` hands it to `test.projects`. */
import { defineProject } from "vitest/config"

const pkg = (name: string, testTimeout = 20_000) =>
  defineProject({
    test: {
      name,
      root: `packages/${name}`,
      include: ["test/**/*.test.ts"],
      testTimeout,
      hookTimeout: 60_000
    }
  })

export default [
  pkg("domain"),
  pkg("planner"),
  pkg("projections", 120_000),
  pkg("testkit"),
  pkg("server", 120_000)
]
