/**
 * The servers the load benchmarks drive (the real service from its bundle, the one-insert
 * baseline) and what they read off them: when a child listens, its CPU time and peak RSS.
 */
import { bundlePath, serveNodeFlags } from "@verbatim/server/scripts/bundle"
import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { telegramUpdate } from "./reliability/Server.js"

export const secret = "bench-secret"
export const senders = 500

/** A webhook body from one of the allowed senders, with a unique update id. */
export const telegramBody = (updateId: number) =>
  telegramUpdate(updateId, 100_000_000 + (updateId % senders), `Note ${updateId}: Alice prefers tea over coffee and is moving to Lisbon in March.`)

/** The peak resident memory of a running child, in MB. */
export const peakRssMb = (pid: number): number => {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return match === null ? NaN : Number(match[1]) / 1024
}

/** User plus system CPU time of a running child, in milliseconds (Linux clock ticks of 10 ms). */
export const cpuMs = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** A loopback port nothing listens on right now (a random one may be taken, and the server would exit). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

/** Resolves once the child prints that it listens. */
export const waitForListening = (child: ChildProcess): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server did not start in 60 s")), 60_000)
    child.stdout?.on("data", (data: Buffer) => {
      if (/listening/i.test(data.toString())) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.on("exit", (code) => reject(new Error(`server exited with ${code}`)))
  })

/** Extra environment for a server process (the slow-flush preload, say). */
export type ExtraEnv = Readonly<Record<string, string>>

/** The baseline: node:http and one better-sqlite3 insert per request. */
export const startBaseline = (synchronous: string, extra: ExtraEnv = {}) => (port: number, dir: string) =>
  spawn(process.execPath, ["--import", "tsx", "bench/ingest-baseline.ts", String(port), join(dir, "baseline.db"), synchronous], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...extra }
  })

/**
 * The service as `npm start` runs it, on SQLite in `dir`, with the bench's senders allowed; from
 * another bundle (an earlier commit's, for a before-and-after in one run) when given.
 */
export const startVerbatim = (synchronous: string, extra: ExtraEnv = {}, bundle: string = bundlePath) => (port: number, dir: string) =>
  spawn(process.execPath, [...serveNodeFlags, bundle, "serve"], {
    stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      VERBATIM_DATA_DIR: dir,
      VERBATIM_SQLITE_SYNCHRONOUS: synchronous,
      TELEGRAM_WEBHOOK_SECRET: secret,
      VERBATIM_SESSION_IDLE_SECONDS: "3600",
      VERBATIM_ALLOWED_SENDERS: Array.from({ length: senders }, (_, i) => `telegram:${100_000_000 + i}`).join(","),
      ANTHROPIC_API_KEY: "",
      // The load generator's connections all come from loopback, like a reverse proxy's.
      VERBATIM_TRUSTED_PROXIES: "127.0.0.1",
      ...extra
    }
  })
