/**
 * The `HttpServer` the app is served on: Node's server, listening, with the webhook front
 * (`WebhookFront`) ahead of the app's own handler. The same as `NodeHttpServer.layer` but for the
 * front; no WebSocket upgrades (the service has none). The front is put in place when the app is
 * served, over the capture queue the app is served with (`Routes.layer` provides it); an app
 * served without one gets every request itself.
 */
import { FileSystem, HttpIncomingMessage, HttpServer, HttpServerError } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import type { Server } from "node:http"
import type { ListenOptions } from "node:net"
import { CaptureQueue } from "../Inbox/CaptureQueue.js"
import type { ServerSettings } from "../ServerConfig.js"
import * as WebhookFront from "./WebhookFront.js"

const make = (evaluate: () => Server, options: ListenOptions, settings: ServerSettings) =>
  Effect.gen(function*() {
    const server = yield* Effect.acquireRelease(Effect.sync(evaluate), (server) =>
      Effect.async<void>((resume) => {
        if (!server.listening) return resume(Effect.void)
        server.close((error) => resume(error === undefined ? Effect.void : Effect.die(error)))
      }))
    yield* Effect.async<void, HttpServerError.ServeError>((resume) => {
      const onError = (cause: unknown) => resume(Effect.fail(new HttpServerError.ServeError({ cause })))
      server.on("error", onError)
      server.listen(options, () => {
        server.off("error", onError)
        resume(Effect.void)
      })
    })
    const address = server.address()!
    return HttpServer.make({
      address: typeof address === "string"
        ? { _tag: "UnixAddress", path: address }
        : { _tag: "TcpAddress", hostname: address.address === "::" ? "0.0.0.0" : address.address, port: address.port },
      serve: (app, middleware) =>
        Effect.gen(function*() {
          const handler = yield* (middleware === undefined ? NodeHttpServer.makeHandler(app) : NodeHttpServer.makeHandler(app, middleware))
          const queue = yield* Effect.serviceOption(CaptureQueue)
          const listener = Option.isSome(queue) ? (yield* WebhookFront.make(settings, queue.value))(handler) : handler
          yield* Effect.addFinalizer(() => Effect.sync(() => server.off("request", listener)))
          server.on("request", listener)
        })
    })
  }).pipe(Effect.provideService(HttpIncomingMessage.MaxBodySize, Option.some(FileSystem.Size(10 * 1024 * 1024))))

/** Node's server from `evaluate`, listening on `options`, with the webhook front. */
export const layer = (
  evaluate: () => Server,
  options: ListenOptions,
  settings: ServerSettings
): Layer.Layer<HttpServer.HttpServer | Layer.Layer.Success<typeof NodeHttpServer.layerContext>, HttpServerError.ServeError> =>
  Layer.merge(Layer.scoped(HttpServer.HttpServer, make(evaluate, options, settings)), NodeHttpServer.layerContext)
