/** The HTTP service over the shared services: routes, background fibers, listener, API token, direct replies, the bot's name. */
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { ApiToken } from "./ApiToken.js"
import { BackgroundLive } from "./Background.js"
import { BotIdentity } from "./BotIdentity.js"
import { DirectReplies } from "./Http/DirectReplies.js"
import * as Routes from "./Http/Routes.js"
import { ServerConfig } from "./ServerConfig.js"

/** Node's HTTP server on `HOST`:`PORT`. */
export const ListenLive = Layer.unwrapEffect(
  Effect.map(ServerConfig, (settings) => NodeHttpServer.layer(createServer, { port: settings.port, host: settings.host }))
)

/** Node's HTTP server on a free loopback port. */
export const listenLoopback = NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })

/** The routes and background fibers on a listener, over `app` (`App.layer`). */
export const layer = <LO, LE, LI, AO, AE, AI>(listen: Layer.Layer<LO, LE, LI>, app: Layer.Layer<AO, AE, AI>) =>
  Routes.layer.pipe(
    Layer.provideMerge(BackgroundLive),
    Layer.provideMerge(listen),
    Layer.provideMerge(ApiToken.layer),
    Layer.provideMerge(Layer.merge(DirectReplies.layer, BotIdentity.layer)),
    Layer.provideMerge(app)
  )
