/**
 * The start-up report of `serve`: where it listens, where the data lives, the generated token, what
 * is not configured. Logged like everything else, so with the JSON logger each line is one object;
 * with text logs (a terminal) it is printed as one block instead.
 */
import { HttpServer } from "@effect/platform"
import * as Store from "@verbatim/projections/Store"
import { Console, Effect, Layer, Option, Redacted } from "effect"
import { resolve } from "node:path"
import { ApiToken } from "./ApiToken.js"
import { LogFormat } from "./LogFormat.js"
import { ImageReader } from "./Media/ImageReader.js"
import { Transcriber } from "./Media/Transcriber.js"
import { WebLinks } from "./WebLinks.js"
import { modelSource } from "./Planning/Planner.js"
import { notConfigured, ServerConfig } from "./ServerConfig.js"
import { block, lines, noModelNotice, type StartReport } from "./StartReport.js"

export { noImageReaderNotice, noModelNotice, noTranscriberNotice, operatorReadsNotice } from "./StartReport.js"

/** Says the report once the server listens: as log lines, or as one block on a terminal. */
export const layer = Layer.effectDiscard(
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const settings = yield* ServerConfig
    const token = yield* ApiToken
    const store = yield* Store.config
    const model = yield* modelSource()
    const transcriber = yield* Transcriber
    const imageReader = yield* ImageReader
    const { publicUrl } = yield* WebLinks
    const logs = yield* LogFormat
    const address = server.address._tag === "TcpAddress" ? `http://${server.address.hostname}:${server.address.port}` : server.address.path
    const report: StartReport = {
      address,
      pages: Option.getOrElse(publicUrl, () => address),
      publicUrlSet: Option.isSome(publicUrl),
      data: Option.isSome(store.url) ? "PostgreSQL (VERBATIM_DATABASE_URL)" : resolve(store.dataDir, "verbatim.db"),
      operatorReads: settings.operatorReads,
      token: { value: Redacted.value(token.token), source: token.source, path: token.path, generated: token.generated },
      notConfigured: [...notConfigured({ ...settings, apiToken: Option.some(token.token) }), ...(model._tag === "None" ? [noModelNotice] : [])],
      transcriber: transcriber.model,
      imageReader: imageReader.model
    }
    if (logs.format === "text") return yield* Effect.zipRight(Console.log(block(report).join("\n")), logs.started)
    yield* Effect.forEach(lines(report), (line) => Effect.logInfo(line), { discard: true })
  })
)
