/**
 * The image has every program the server runs: the Dockerfile's runtime stage installs exactly the
 * Debian packages `Media/Programs.ts` names (always checked, from the file), and where a Docker
 * daemon runs, the built image has each program on its PATH and the pinned Node.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile, execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { defaultOcrLanguages, ocrLanguagePackage, programs } from "../src/Media/Programs.js"
import { aptPackages, globalArgs, stages } from "./dockerfile.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const dockerfile = readFileSync(`${root}Dockerfile`, "utf8")
const packageJson = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { engines?: { node?: string } }

/** Installed in the runtime stage though no program in the table comes from them, each with why. */
const deliberatelyExtra: ReadonlyArray<{ readonly debianPackage: string; readonly reason: string }> = [
  ...defaultOcrLanguages.map((code) => ({
    debianPackage: ocrLanguagePackage(code),
    reason: `Tesseract's data for "${code}", a default VERBATIM_OCR_LANGUAGES language`
  }))
]

const sorted = (names: Iterable<string>) => [...new Set(names)].sort()
const runtime = stages(dockerfile).at(-1)!
const installed = aptPackages(runtime)
const needed = sorted(programs.map((entry) => entry.debianPackage))
const extra = sorted(deliberatelyExtra.map((entry) => entry.debianPackage))

/** `node:24.19.0-bookworm-slim`, optionally `@sha256:…`: a full version, as the image's docs advise. */
const pinned = /^node:(\d+)\.(\d+)\.(\d+)-bookworm-slim(?:@sha256:[0-9a-f]{64})?$/
const nodeImage = globalArgs(dockerfile)["NODE_IMAGE"] ?? ""
const nodeVersion = pinned.exec(nodeImage)?.slice(1, 4).join(".") ?? null

describe("the Dockerfile", () => {
  it("reads its stages and their apt-get installs (the runtime stage is the last)", () => {
    const text = [
      "ARG BASE=node:1.2.3-bookworm-slim",
      "FROM ${BASE} AS build",
      "# RUN apt-get install -y commented-out",
      "RUN apt-get update && apt-get install -y --no-install-recommends g++ \\",
      "  make && rm -rf /var/lib/apt/lists/*",
      "FROM ${BASE}",
      "RUN apt-get -y install b-pkg \\",
      "  a-pkg"
    ].join("\n")
    expect({ args: globalArgs(text), stages: stages(text).map((stage) => [stage.from, aptPackages(stage)]) }).toEqual({
      args: { BASE: "node:1.2.3-bookworm-slim" },
      stages: [["${BASE} AS build", ["g++", "make"]], ["${BASE}", ["a-pkg", "b-pkg"]]]
    })
  })

  it("installs in its runtime stage exactly the packages of the programs the server runs, and the deliberate extras", () => {
    expect({
      missing: needed.filter((name) => !installed.includes(name)),
      forNothing: installed.filter((name) => !needed.includes(name) && !extra.includes(name))
    }).toEqual({ missing: [], forNothing: [] })
    expect(installed).toEqual(sorted([...needed, ...extra]))
  })

  it("builds both stages on one Node image pinned to a full version, Node 24 LTS; package.json says which Node runs it", () => {
    expect({
      from: stages(dockerfile).map((stage) => stage.from),
      nodeImage: pinned.test(nodeImage),
      major: nodeVersion?.split(".")[0],
      engines: packageJson.engines?.node
    }).toEqual({ from: ["${NODE_IMAGE} AS build", "${NODE_IMAGE}"], nodeImage: true, major: "24", engines: ">=20" })
  })
})

/** Why the image checks cannot run here, or null when a Docker daemon answers. */
const dockerMissing = ((): string | null => {
  try {
    execFileSync("docker", ["info", "--format", "{{.ServerVersion}}"], { stdio: "pipe", timeout: 30_000 })
    return null
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: Buffer }
    if (e.code === "ENOENT") return "no docker command on the PATH"
    const said = e.stderr?.toString().trim().split("\n").find((line) => line.trim() !== "")
    return `\`docker info\` failed: ${said ?? e.message}`
  }
})()
const skipped = dockerMissing === null ? "" : ` (skipped: needs a running Docker daemon; ${dockerMissing})`
if (dockerMissing !== null) console.warn(`Docker image checks skipped: they need a running Docker daemon; ${dockerMissing}`)

const docker = (args: ReadonlyArray<string>, timeout: number) =>
  promisify(execFile)("docker", [...args], { timeout, maxBuffer: 64 * 1024 * 1024 }).then(({ stdout }) => stdout.trim())

/** `VERBATIM_TEST_DOCKER_IMAGE` when set (an image already built from this Dockerfile), else the image built now. */
const image = async () => {
  const given = process.env["VERBATIM_TEST_DOCKER_IMAGE"]
  if (given !== undefined && given !== "") return given
  await docker(["build", "--tag", "verbatim-test:dockerfile-packages", root], 30 * 60_000)
  return "verbatim-test:dockerfile-packages"
}

describe.skipIf(dockerMissing !== null)(`the built image${skipped}`, () => {
  it("has each program the server runs on its PATH, Tesseract's default languages, and the pinned Node", async () => {
    const name = await image()
    const inImage = (script: string, ...args: ReadonlyArray<string>) =>
      docker(["run", "--rm", "--entrypoint", "sh", name, "-c", script, "sh", ...args], 5 * 60_000)
    const found = await Promise.all(programs.map(async ({ program }) => [program, await inImage("command -v \"$1\" || true", program)]))
    const languages = (await inImage("tesseract --list-langs 2>/dev/null | tail -n +2")).split("\n").map((line) => line.trim())
    expect({
      programs: found,
      languages: defaultOcrLanguages.filter((code) => languages.includes(code)),
      node: await inImage("node --version")
    }).toEqual({
      programs: programs.map(({ program }) => [program, `/usr/bin/${program}`]),
      languages: defaultOcrLanguages,
      node: `v${nodeVersion}`
    })
  }, 40 * 60_000)
})
