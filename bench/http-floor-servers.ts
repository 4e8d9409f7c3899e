/**
 * The smallest servers of each HTTP stack, for the per-request CPU floor: each reads the body
 * and answers `{}` with 200, doing nothing else.
 * Usage: tsx bench/http-floor-servers.ts <node-http|effect-serve|effect-router> <port>
 */
import { type HttpApp, HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"

const [kind, portText] = process.argv.slice(2)
const port = Number(portText)
const listening = () => process.stdout.write("listening\n")

/** An Effect HttpApp served on Node's server, announcing itself once it listens. */
const serveEffect = <E>(app: HttpApp.Default<E>) =>
  NodeRuntime.runMain(Layer.launch(
    Layer.effectDiscard(Effect.sync(listening)).pipe(
      Layer.provideMerge(HttpServer.serve(app)),
      Layer.provide(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" }))
    )
  ))

/** Reads the whole body, as every webhook must before it can check a signature. */
const readBodyThenAnswer = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => request.arrayBuffer).pipe(
  Effect.as(HttpServerResponse.unsafeJson({})),
  Effect.orDie
)

switch (kind) {
  case "node-http":
    createServer((request, response) => {
      request.resume()
      request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end("{}"))
    }).listen(port, "127.0.0.1", listening)
    break
  case "effect-serve":
    serveEffect(readBodyThenAnswer)
    break
  case "effect-router":
    serveEffect(HttpRouter.empty.pipe(HttpRouter.post("/webhooks/telegram", readBodyThenAnswer)))
    break
  default:
    throw new Error(`unknown server kind ${kind}`)
}
