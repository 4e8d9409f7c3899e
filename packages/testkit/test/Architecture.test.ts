/**
 * The package rule (`architecture.json` at the repository root) checked against the sources:
 * which packages each package's `src/` imports, no import cycle among source files (type-only
 * imports count), and no source file over the line limit.
 */
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../../", import.meta.url))

const Rule = Schema.Struct({
  workspace: Schema.Array(Schema.String),
  external: Schema.Union(Schema.Literal("any"), Schema.Array(Schema.String))
})
const Architecture = Schema.Struct({
  lineLimit: Schema.Number,
  packages: Schema.Record({ key: Schema.String, value: Rule }),
  appenders: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) }),
  rooms: Schema.Record({ key: Schema.String, value: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) }) }),
  providerNames: Schema.Array(Schema.String)
})
const architecture = Schema.decodeUnknownSync(Schema.parseJson(Architecture))(
  readFileSync(join(root, "architecture.json"), "utf8")
)

/**
 * Source files over the line limit today (none). Add one only with a reason; the test fails while
 * a listed file is back under the limit, so the list can only shrink.
 */
const knownLongFiles: ReadonlyArray<string> = []

/**
 * Imports that close a cycle today (none), as `from -> to`; the test fails once one is gone, so
 * the list can only shrink.
 */
const knownCycleEdges: ReadonlyArray<string> = []

const walk = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []
  )

interface Source {
  readonly path: string
  readonly pkg: string
  readonly lines: number
  readonly specifiers: ReadonlyArray<string>
  readonly text: string
}

// Top-level statements start a line; comment lines (` * import …`) do not.
const fromClause = /^(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gm
const bare = /^import\s*["']([^"']+)["']/gm

const sources: ReadonlyArray<Source> = Object.keys(architecture.packages).flatMap((pkg) =>
  walk(join(root, "packages", pkg, "src")).map((file) => {
    const text = readFileSync(file, "utf8")
    return {
      path: relative(root, file),
      pkg,
      lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0),
      specifiers: [...text.matchAll(fromClause), ...text.matchAll(bare)].map((m) => m[1]!),
      text
    }
  })
)

/** `@scope/name` or `name` of a bare specifier; `node:x` is itself. */
const packageOf = (specifier: string): string => {
  const parts = specifier.split("/")
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!
}

/** The source file an import names, when it is one of ours (relative or `@verbatim/…`). */
const target = (from: string, specifier: string): string | undefined => {
  if (specifier.startsWith(".")) return relative(root, resolve(dirname(join(root, from)), specifier.replace(/\.js$/, ".ts")))
  if (!specifier.startsWith("@verbatim/")) return undefined
  const [, pkg, ...rest] = specifier.split("/")
  return rest.length === 0 ? `packages/${pkg}/src/index.ts` : `packages/${pkg}/src/${rest.join("/")}.ts`
}

const forbiddenImports = (only: (source: Source, specifier: string) => boolean) =>
  sources.flatMap((source) => source.specifiers.filter((s) => only(source, s)).map((s) => `${source.path} imports ${s}`))

/** The first cycle found by depth-first search, as the files around it, or none. */
const findCycle = (graph: ReadonlyMap<string, ReadonlyArray<string>>): ReadonlyArray<string> => {
  const state = new Map<string, "open" | "done">()
  const stack: Array<string> = []
  const visit = (node: string): ReadonlyArray<string> => {
    state.set(node, "open")
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") return [...stack.slice(stack.indexOf(next)), next]
      if (state.get(next) === undefined) {
        const cycle = visit(next)
        if (cycle.length > 0) return cycle
      }
    }
    stack.pop()
    state.set(node, "done")
    return []
  }
  for (const node of graph.keys()) {
    if (state.get(node) === undefined) {
      const cycle = visit(node)
      if (cycle.length > 0) return cycle
    }
  }
  return []
}

/** The lines of each source that match `pattern`, as `path: line`. */
const linesMatching = (pattern: RegExp, only: (source: Source) => boolean) =>
  sources.filter(only).flatMap((source) => source.text.split("\n").filter((line) => pattern.test(line)).map((line) => `${source.path}: ${line.trim()}`))

describe("Architecture", () => {
  it("reads every package's sources", () => {
    expect(Object.keys(architecture.packages).map((pkg) => sources.filter((s) => s.pkg === pkg).length > 0)).toEqual(
      Object.keys(architecture.packages).map(() => true)
    )
  })

  it("no production source imports the testkit", () => {
    expect(forbiddenImports((source, s) => source.pkg !== "testkit" && packageOf(s) === "@verbatim/testkit")).toEqual([])
  })

  it("each package imports only the workspace packages its rule names", () => {
    expect(forbiddenImports((source, s) => {
      const pkg = packageOf(s)
      return pkg.startsWith("@verbatim/") && pkg !== `@verbatim/${source.pkg}` &&
        !architecture.packages[source.pkg]!.workspace.includes(pkg.slice("@verbatim/".length))
    })).toEqual([])
  })

  it("each package imports only the outside packages its rule names", () => {
    expect(forbiddenImports((source, s) => {
      const allowed = architecture.packages[source.pkg]!.external
      return !s.startsWith(".") && !packageOf(s).startsWith("@verbatim/") && allowed !== "any" && !allowed.includes(packageOf(s))
    })).toEqual([])
  })

  it("each package.json depends on no workspace package its rule does not name", () => {
    const undeclared = Object.entries(architecture.packages).flatMap(([pkg, rule]) => {
      const manifest = JSON.parse(readFileSync(join(root, "packages", pkg, "package.json"), "utf8")) as {
        readonly dependencies?: Record<string, string>
      }
      return Object.keys(manifest.dependencies ?? {})
        .filter((dep) => dep.startsWith("@verbatim/") && !rule.workspace.includes(dep.slice("@verbatim/".length)))
        .map((dep) => `packages/${pkg}/package.json depends on ${dep}`)
    })
    expect(undeclared).toEqual([])
  })

  it("no import cycle among source files, type-only imports included, but the known edges, each still there", () => {
    const known = new Set(sources.map((s) => s.path))
    const edges = sources.flatMap((source) =>
      source.specifiers.flatMap((s) => {
        const file = target(source.path, s)
        return file !== undefined && known.has(file) ? [`${source.path} -> ${file}`] : []
      })
    )
    const graph = new Map<string, Array<string>>(sources.map((s) => [s.path, []]))
    for (const edge of edges) {
      if (knownCycleEdges.includes(edge)) continue
      const [from, to] = edge.split(" -> ")
      graph.get(from!)!.push(to!)
    }
    expect(findCycle(graph).join(" -> ")).toEqual("")
    expect(knownCycleEdges.filter((edge) => !edges.includes(edge))).toEqual([])
  })

  it("every import of ours names a source file that exists", () => {
    const known = new Set(sources.map((s) => s.path))
    expect(sources.flatMap((source) =>
      source.specifiers.flatMap((s) => {
        const file = target(source.path, s)
        return file === undefined || known.has(file) ? [] : [`${source.path} imports ${s}`]
      })
    )).toEqual([])
  })

  it(`no source file is over ${architecture.lineLimit} lines but the known ones, each still over it`, () => {
    const long = sources.filter((s) => s.lines > architecture.lineLimit).map((s) => s.path).sort()
    expect(long).toEqual([...knownLongFiles].sort())
  })

  it("only the files the rule names append to the event store (the server's one runner)", () => {
    expect(linesMatching(/\.append(Batch)?\(/, (source) => {
      const appenders = architecture.appenders[source.pkg]
      return appenders !== undefined && !appenders.includes(source.path)
    })).toEqual([])
  })

  it("each folder of a package with rooms imports only the folders its room names", () => {
    /** The folder under `packages/<pkg>/src/` a file is in, "" for the top level. */
    const roomOf = (pkg: string, path: string) => {
      const inside = relative(join("packages", pkg, "src"), path).split("/")
      return inside.length === 1 ? "" : inside[0]!
    }
    const crossings = sources.flatMap((source) => {
      const rooms = architecture.rooms[source.pkg]
      if (rooms === undefined) return []
      const from = roomOf(source.pkg, source.path)
      return source.specifiers.flatMap((specifier) => {
        const to = target(source.path, specifier)
        if (to === undefined || !to.startsWith(`packages/${source.pkg}/src/`)) return []
        const room = roomOf(source.pkg, to)
        const allowed = from === "" || room === from || (rooms[from] ?? []).includes(room)
        return allowed ? [] : [`${source.path} (${from}) imports ${specifier} (${room === "" ? "top level" : room})`]
      })
    })
    expect(crossings).toEqual([])
    // Every folder has its room, and every room is a folder.
    const folders = [...new Set(sources.flatMap((s) => (architecture.rooms[s.pkg] === undefined ? [] : [roomOf(s.pkg, s.path)])))].filter((r) => r !== "")
    expect(folders.sort()).toEqual(Object.values(architecture.rooms).flatMap((rooms) => Object.keys(rooms)).sort())
  })

  it("no source chooses by comparing a provider's name: it looks the provider up in its table", () => {
    const names = architecture.providerNames.join("|")
    const comparison = new RegExp(`[!=]==\\s*["'](${names})["']|["'](${names})["']\\s*[!=]==`)
    // The testkit's fakes speak the providers' wire formats, where a provider's name is a field's value.
    expect(linesMatching(comparison, (source) => source.pkg !== "testkit")).toEqual([])
  })
})

describe("findCycle", () => {
  it("names the files around a cycle, and nothing when there is none", () => {
    expect(findCycle(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["b"]]]))).toEqual(["b", "c", "b"])
    expect(findCycle(new Map([["a", ["b", "c"]], ["b", ["c"]], ["c", []]]))).toEqual([])
  })

})
