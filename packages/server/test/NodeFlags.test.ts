/** `npm start`, the Dockerfile and the benchmarks run the server with the same Node flags. */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { serveNodeFlags } from "../scripts/bundle.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const read = (path: string) => readFileSync(`${root}${path}`, "utf8")

describe("the server's Node flags", () => {
  it("are the ones package.json's start script passes", () => {
    const scripts = JSON.parse(read("package.json")).scripts as Record<string, string>
    expect(scripts["start"]).toBe(`npm run --silent bundle && node ${serveNodeFlags.join(" ")} packages/server/build/verbatim.mjs serve`)
  })

  it("are the ones the Dockerfile's command passes", () => {
    const command = /^CMD (.*)$/m.exec(read("Dockerfile"))?.[1]
    expect(command).toBe(JSON.stringify(["node", ...serveNodeFlags, "packages/server/build/verbatim.mjs", "serve"]).replace(/","/g, "\", \""))
  })
})
