/**
 * Bundles the `verbatim` command into one ES module, `packages/server/build/verbatim.mjs`, so
 * the service runs on plain Node without compiling TypeScript at start-up (less memory, faster
 * start). Native and WebAssembly packages stay external and load from node_modules.
 *
 * Modules that find their assets relative to themselves (`new URL("../prompts/", import.meta.url)`)
 * keep their own source location in the bundle, so the packaged prompts and the demo's
 * cassettes are read from the checkout as they are under tsx.
 */
import { build, type Plugin } from "esbuild"
import { readFile } from "node:fs/promises"
import { fileURLToPath, pathToFileURL } from "node:url"

const server = fileURLToPath(new URL("../", import.meta.url))

/** Replaces `import.meta.url` in the project's own sources with the URL of the source file. */
const sourceLocation: Plugin = {
  name: "source-location",
  setup(builder) {
    builder.onLoad({ filter: /\/packages\/[^/]+\/src\/.*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8")
      return { contents: source.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)), loader: "ts" }
    })
  }
}

/** Where the bundle is written. */
export const bundlePath = `${server}build/verbatim.mjs`

/** The Node flags `npm start` runs `serve` with; package.json's start script passes the same. */
export const serveNodeFlags: ReadonlyArray<string> = ["--max-old-space-size=256"]

/**
 * The Node flags `bench:store` times a rebuild with, and that README suggests for a rebuild on a
 * small machine (`NODE_OPTIONS`). A rebuild's rows are garbage once their page is written, but
 * they live long enough to be promoted, and with no cap V8 lets them pile up: 349–352 MB peak over
 * a 1M-event log on SQLite, 215 MB with the cap, for a rebuild about as fast within this
 * machine's noise. The CLI itself runs uncapped: an import parses a whole export file.
 */
export const cliNodeFlags: ReadonlyArray<string> = ["--max-old-space-size=256"]

/** Writes the bundle; about a second. */
export const bundle = () =>
  build({
    entryPoints: [`${server}src/bin.ts`],
    outfile: bundlePath,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["better-sqlite3", "@electric-sql/pglite", "@electric-sql/pglite-socket"],
    // CommonJS dependencies inside an ES module bundle still call `require` for Node's built-ins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [sourceLocation],
    logLevel: "warning"
  })

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle()
