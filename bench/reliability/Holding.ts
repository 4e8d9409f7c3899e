/**
 * Loopback proxies in front of the fake Telegram, one per server. Each passes every call on; once
 * told to, it passes the next send of one exact text on (the provider has the message) and never
 * answers it, so a `kill -9` then falls between the send and its record.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface Holding {
  /** Each proxy's `http://127.0.0.1:<port>`, for a server's `TELEGRAM_API_BASE`. */
  readonly urls: ReadonlyArray<string>
  /** Hold the answer to the next `sendMessage` of exactly `text`, through whichever proxy it comes. */
  readonly holdNext: (text: string) => void
  /** Which proxy (by index) holds an answer; null while none does. */
  readonly heldBy: () => number | null
  readonly close: () => Promise<void>
}

const textOf = (body: Buffer): unknown => {
  try {
    return (JSON.parse(body.toString("utf8")) as { text?: unknown }).text
  } catch {
    return undefined
  }
}

export const holdingProxies = async (target: string, count: number): Promise<Holding> => {
  let armed: string | null = null
  let heldBy: number | null = null
  const forward = async (index: number, request: IncomingMessage, body: Buffer, response: ServerResponse) => {
    const hold = armed !== null && (request.url ?? "").endsWith("/sendMessage") && textOf(body) === armed
    if (hold) [armed, heldBy] = [null, index]
    try {
      const upstream = await fetch(`${target}${request.url ?? "/"}`, {
        method: request.method ?? "POST",
        headers: { "content-type": request.headers["content-type"] ?? "application/json" },
        ...(request.method === "GET" || request.method === "HEAD" ? {} : { body })
      })
      const answer = Buffer.from(await upstream.arrayBuffer())
      if (hold) return
      response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" }).end(answer)
    } catch {
      response.destroy()
    }
  }
  const servers: Array<Server> = []
  for (let index = 0; index < count; index++) {
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => void forward(index, request, Buffer.concat(chunks), response))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    servers.push(server)
  }
  return {
    urls: servers.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    holdNext: (text) => void (armed = text),
    heldBy: () => heldBy,
    close: () =>
      Promise.all(servers.map((server) => new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }))).then(() => undefined)
  }
}
