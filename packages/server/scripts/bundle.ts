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

/** The module that holds the API reference's script (Scalar's, 3.4 MB of source). */
const scalarScript = "/@effect/platform/dist/esm/internal/httpApiScalar.js"

/**
 * Keeps the API reference's script out of what the server loads at start. esbuild places whole
 * files in chunks, and the platform's index re-exports `HttpApiScalar`: through it, the module
 * counts as reached from the main bundle even where nothing uses it, and its script would land in
 * a chunk loaded at start. Here the index's re-export is an empty namespace, so the only way in is
 * `Http/ApiReferencePage.ts`'s own `import("@effect/platform/HttpApiScalar")`, a chunk of its own.
 * (Import `HttpApiScalar` from its own module, never from `@effect/platform`.)
 */
const lazyApiReference: Plugin = {
  name: "lazy-api-reference",
  setup(builder) {
    builder.onResolve({ filter: /^\.\/HttpApiScalar\.js$/ }, (args) =>
      /[/\\]@effect[/\\]platform[/\\]dist[/\\]esm[/\\]index\.js$/.test(args.importer) ? { path: "HttpApiScalar", namespace: "lazy-api-reference" } : undefined)
    builder.onLoad({ filter: /.*/, namespace: "lazy-api-reference" }, () => ({ contents: "export {}", loader: "js" }))
  }
}

/** Where the bundle is written. */
export const bundlePath = `${server}build/verbatim.mjs`

/**
 * The Node flags `npm start` runs `serve` with; package.json's start script and the Dockerfile
 * pass the same (NodeFlags.test.ts). The old space is capped at 256 MB: the working set is a
 * fraction of that, and uncapped V8 lets a busy server grow past 300 MB resident. The young
 * generation's semi-spaces are 8 MB rather than 16: 20 MB less resident under a capture storm
 * (191 → 171 MB peak over 22,000 captures) for about 2% more time in scavenges (BENCHMARKS.md,
 * "Capture CPU, 2026-12-04").
 */
export const serveNodeFlags: ReadonlyArray<string> = ["--max-old-space-size=256", "--max-semi-space-size=8"]

/**
 * The Node flags `bench:store` times a rebuild with, and that README suggests for a rebuild on a
 * small machine (`NODE_OPTIONS`). A rebuild's rows are garbage once their page is written, but
 * they live long enough to be promoted, and with no cap V8 lets them pile up: 272–277 MB peak over
 * a 1M-event log on SQLite, 195–200 MB with the cap, for a rebuild about as fast within this
 * machine's noise. The CLI itself runs uncapped: an import parses a whole export file.
 */
export const cliNodeFlags: ReadonlyArray<string> = ["--max-old-space-size=256"]

/**
 * Non-Latin-1 characters in the bundle, with where they are. V8 keeps a script's source as a
 * one-byte string only when every character fits in Latin-1; one character outside it doubles
 * the source's memory. esbuild escapes them in strings, but not in comments (dropped by
 * `minifyWhitespace`), regular expression literals or tagged templates: write those as escapes
 * (`\u2013`) or HTML entities (`&ndash;`).
 */
const wideCharacters = (source: string): ReadonlyArray<string> =>
  Array.from(source.matchAll(/[^\u0000-\u00ff]/gu), (m) => `U+${m[0].codePointAt(0)!.toString(16).toUpperCase()} in …${source.slice(Math.max(0, m.index - 40), m.index + 10)}…`)

/** Writes the bundle, `verbatim.mjs` and its chunks (`build/chunks/`), and warns of text V8 would hold as two-byte; about a second. */
export const bundle = async () => {
  const result = await build({
    entryPoints: { verbatim: `${server}src/bin.ts` },
    outdir: `${server}build`,
    outExtension: { ".js": ".mjs" },
    // Code imported with `import()` (the API reference's 3.4 MB script) goes to a chunk loaded
    // when first asked for. Chunks are named by their content, so a build never overwrites a chunk
    // a running server has yet to load.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    // Comments and indentation go: a smaller source, and the undici comments' curly quotes would
    // make V8 hold the whole source as two-byte text. Names stay, for readable stack traces.
    minifyWhitespace: true,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["better-sqlite3", "sharp", "@electric-sql/pglite", "@electric-sql/pglite-socket"],
    // CommonJS dependencies inside an ES module bundle still call `require` for Node's built-ins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [sourceLocation, lazyApiReference],
    logLevel: "warning",
    metafile: true
  })
  const outputs = result.metafile.outputs
  const loadedAtStart = (file: string): ReadonlyArray<string> => [
    file,
    ...outputs[file]!.imports.filter((i) => i.kind === "import-statement" && i.path in outputs).flatMap((i) => loadedAtStart(i.path))
  ]
  const atStart = loadedAtStart(Object.keys(outputs).find((file) => outputs[file]!.entryPoint !== undefined)!)
  if (atStart.some((file) => Object.keys(outputs[file]!.inputs).some((input) => input.endsWith(scalarScript)))) {
    throw new Error(`bundle: the API reference's script (${scalarScript}) is in a chunk loaded at start; see lazyApiReference`)
  }
  for (const output of Object.keys(outputs)) {
    const wide = wideCharacters(await readFile(output, "utf8"))
    if (wide.length > 0) console.warn(`bundle: ${output} holds characters outside Latin-1, so V8 keeps its source as two-byte text:\n${wide.slice(0, 5).join("\n")}`)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle()
