/** The HTTP service over the shared services: routes, background fibers, listener, API token, direct replies, the bot's name. */
import { Duration, Effect, Layer } from "effect"
import { createServer, type Server } from "node:http"
import { ApiToken } from "./ApiToken.js"
import { BackgroundLive } from "./Background.js"
import { BotIdentity } from "./BotIdentity.js"
import * as Listener from "./Http/Listener.js"
import { DirectReplies } from "./Providers/DirectReplies.js"
import * as Routes from "./Http/Routes.js"
import { trustedAddress } from "./Web/ClientAddress.js"
import { WebLinks } from "./WebLinks.js"
import { ServerConfig, type ServerSettings } from "./ServerConfig.js"

/**
 * Node's HTTP server with the configured limits: a client that is slow with its headers or its
 * whole request gets a 408 and its connection closed, connections past the cap are closed as
 * they arrive, and so are one address's past its own share (`maxConnectionsPerAddress`; the
 * operator's proxies, which carry everyone's, excepted), so a slow or flooding client cannot hold
 * the process's sockets and memory, nor the places other senders' webhooks need.
 */
export const nodeServer = (settings: ServerSettings) => (): Server => {
  const headersMillis = Duration.toMillis(settings.headersTimeout)
  const server = createServer({
    headersTimeout: headersMillis,
    requestTimeout: Duration.toMillis(settings.requestTimeout),
    // Node looks for expired requests on this interval (30 s unless set), which would stretch the limits.
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersMillis / 4)))
  })
  server.maxConnections = settings.maxConnections
  const isProxy = trustedAddress(settings.trustedProxies)
  const open = new Map<string, number>()
  server.on("connection", (socket) => {
    const address = socket.remoteAddress ?? "unknown"
    if (isProxy(address)) return
    const count = (open.get(address) ?? 0) + 1
    if (count > settings.maxConnectionsPerAddress) return socket.destroy()
    open.set(address, count)
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1
      if (left === 0) open.delete(address)
      else open.set(address, left)
    })
  })
  return server
}

/** The configured node server listening on `address` (with the webhook front, see `Http/Listener.ts`). */
export const listen = (address: { readonly port: number; readonly host: string }) =>
  Layer.unwrapEffect(Effect.map(ServerConfig, (settings) => Listener.layer(nodeServer(settings), address, settings)))

/** Node's HTTP server on `HOST`:`PORT`. */
export const ListenLive = Layer.unwrapEffect(Effect.map(ServerConfig, (settings) => listen({ port: settings.port, host: settings.host })))

/** Node's HTTP server on a free loopback port. */
export const listenLoopback = listen({ port: 0, host: "127.0.0.1" })

/** The routes and background fibers on a listener, over `app` (`App.layer`). */
export const layer = <LO, LE, LI, AO, AE, AI>(listen: Layer.Layer<LO, LE, LI>, app: Layer.Layer<AO, AE, AI>) =>
  Routes.layer.pipe(
    Layer.provideMerge(BackgroundLive),
    Layer.provideMerge(listen),
    Layer.provideMerge(ApiToken.layer),
    Layer.provideMerge(Layer.mergeAll(DirectReplies.layer, BotIdentity.layer, WebLinks.layer)),
    Layer.provideMerge(app)
  )
