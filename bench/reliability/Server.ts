/** Starting the real server as a child process for the harness, and talking to it over loopback. */
import { type ChildProcess, spawn } from "node:child_process"
import { createHmac } from "node:crypto"
import { createServer } from "node:net"
import { bundlePath, serveNodeFlags } from "@verbatim/server/scripts/bundle"

export const telegramSecret = "reliability-telegram-secret"
export const whatsAppSecret = "reliability-whatsapp-secret"
export const apiToken = "reliability-api-token"

export interface Running {
  readonly child: ChildProcess
  readonly url: string
}

export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/** Start `verbatim serve` (this checkout's bundle, or `bundle`, with `nodeFlags` besides npm start's) on a free port with this environment; resolves once /healthz answers. */
export const start = async (env: Readonly<Record<string, string>>, bundle = bundlePath, nodeFlags: ReadonlyArray<string> = []): Promise<Running> => {
  const port = await freePort()
  // The bundled command, as `npm start` runs it: one process, so `kill -9` kills the server itself.
  const child = spawn(process.execPath, [...serveNodeFlags, ...nodeFlags, bundle, "serve"], {
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: process.env["HOME"] ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      TELEGRAM_WEBHOOK_SECRET: telegramSecret,
      WHATSAPP_APP_SECRET: whatsAppSecret,
      WHATSAPP_VERIFY_TOKEN: "reliability-verify",
      VERBATIM_API_TOKEN: apiToken,
      // The harness's connections all come from loopback, like a reverse proxy's.
      VERBATIM_TRUSTED_PROXIES: "127.0.0.1",
      // It checks every user's notes through the API (and reads the event log), as a single-person install may.
      VERBATIM_OPERATOR_READS: "all",
      ...env
    }
  })
  let stderr = ""
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (exited(child)) throw new Error(`server exited (${child.exitCode ?? child.signalCode}): ${stderr.slice(-2000)}`)
    try {
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok) return { child, url }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  child.kill("SIGKILL")
  throw new Error(`server did not answer /healthz within 60 s: ${stderr.slice(-2000)}`)
}

/** Whether the child has ended; one killed by a signal has a `signalCode` and no `exitCode`. */
export const exited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null

/** Resolves once the child has ended, even if it already had. */
export const whenExited = (child: ChildProcess): Promise<void> =>
  exited(child) ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()))

export const stop = async (running: Running, signal: NodeJS.Signals = "SIGTERM"): Promise<void> => {
  if (exited(running.child)) return
  running.child.kill(signal)
  await Promise.race([whenExited(running.child), new Promise((resolve) => setTimeout(resolve, 10_000))])
  if (!exited(running.child)) running.child.kill("SIGKILL")
}

export const telegramUpdate = (updateId: number, sender: number, text: string) =>
  JSON.stringify({
    update_id: updateId,
    message: {
      message_id: updateId,
      date: 1_767_225_600,
      chat: { id: sender, type: "private", first_name: "Harness" },
      from: { id: sender, is_bot: false, first_name: "Harness" },
      text
    }
  })

/** No request of the harness may wait forever: a hung server fails the check instead of stalling it. */
const requestTimeout = () => AbortSignal.timeout(15_000)

export const postTelegram = (url: string, body: string | Uint8Array, secret = telegramSecret) =>
  fetch(`${url}/webhooks/telegram`, {
    method: "POST",
    signal: requestTimeout(),
    headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret },
    body
  })

export const whatsAppSignature = (body: Uint8Array | string) =>
  "sha256=" + createHmac("sha256", whatsAppSecret).update(body).digest("hex")

export const postWhatsApp = (url: string, body: Uint8Array | string, signature = whatsAppSignature(body)) =>
  fetch(`${url}/webhooks/whatsapp`, {
    method: "POST",
    signal: requestTimeout(),
    headers: { "content-type": "application/json", "x-hub-signature-256": signature },
    body
  })

export interface LoggedEvent {
  readonly position: number
  readonly streamId: string
  readonly event: { readonly _tag: string; readonly [key: string]: unknown }
}

/** Every event in the log, through the API. */
export const allEvents = async (url: string): Promise<Array<LoggedEvent>> => {
  const events: Array<LoggedEvent> = []
  let after: string | null = null
  for (;;) {
    const response = await fetch(`${url}/api/events?${after === null ? "" : `after=${after}&`}limit=500`, {
      signal: requestTimeout(),
      headers: { authorization: `Bearer ${apiToken}` }
    })
    if (!response.ok) throw new Error(`GET /api/events answered ${response.status}: ${await response.text()}`)
    const page = (await response.json()) as { events: Array<LoggedEvent>; nextAfter: string }
    events.push(...page.events)
    if (page.events.length === 0 || page.nextAfter === after) return events
    after = page.nextAfter
  }
}

/** Provider message ids of every captured message, with how often each was recorded. */
export const capturedCounts = (events: ReadonlyArray<LoggedEvent>): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const { event } of events) {
    if (event._tag !== "MessageReceived") continue
    const id = (event["message"] as { providerMessageId: string }).providerMessageId
    counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  return counts
}

/** A request to the API with the token (a GET, or a `POST` with no body); its status and JSON body. */
export const api = async (url: string, path: string, method: "GET" | "POST" = "GET") => {
  const response = await fetch(`${url}${path}`, { method, signal: requestTimeout(), headers: { authorization: `Bearer ${apiToken}` } })
  return { status: response.status, body: (await response.json()) as unknown }
}

/** Wait until `condition` holds, looking every `everyMs`; past `limitMs` the check fails naming what it waited for. */
export const until = async (label: string, condition: () => Promise<boolean>, limitMs = 90_000, everyMs = 200) => {
  const deadline = Date.now() + limitMs
  while (Date.now() < deadline) {
    if (await condition()) return
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
  throw new Error(`timed out waiting for ${label}`)
}

/** Post a Telegram text from `user`; anything but a 200 fails the check. */
export const post = async (url: string, id: number, user: number, text: string) => {
  const response = await postTelegram(url, telegramUpdate(id, user, text))
  if (response.status !== 200) throw new Error(`webhook answered ${response.status}: ${await response.text()}`)
}

/** One sample of the server's `/metrics` (name with its labels, as exposed); NaN when absent. */
export const metric = async (url: string, name: string) => {
  const text = await (await fetch(`${url}/metrics`, { signal: requestTimeout() })).text()
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  return Number(new RegExp(`^${escaped} (\\S+)$`, "m").exec(text)?.[1] ?? "NaN")
}
