/**
 * Checkpoints of a SQLite store's write-ahead log on a thread of their own. SQLite copies the log
 * back into the database in the commit that crosses `wal_autocheckpoint`, on the thread that
 * commits: in a capture storm that commit took 40 ms at p99 (against 0.6 ms at the median) and
 * every request of its batch waited for it. Here a worker thread with its own connection runs a
 * `PASSIVE` checkpoint every `intervalMs`, which never blocks the writer, so the copy and its flush
 * leave the event loop. The writer's own automatic checkpoint stays as the backstop: under a
 * steady stream of commits a passive checkpoint is always a little behind the log's end, the log
 * starts over only once a checkpoint has reached it, and the writer's checkpoint then copies just
 * the frames since the worker's last one.
 */
import { Effect, Runtime, type Scope } from "effect"
import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"

export interface CheckpointerOptions {
  readonly filename: string
  readonly synchronous: "FULL" | "NORMAL"
  /** Milliseconds between two checkpoints. */
  readonly intervalMs: number
}

/**
 * The worker's program: plain JavaScript evaluated in the thread, so the same text runs from the
 * sources and from the bundle. It loads the driver the main thread resolved, checkpoints on a
 * timer, reports a failure to open and its first failed checkpoint, and closes its connection
 * when told to stop.
 */
const program = `
const { parentPort, workerData } = require("node:worker_threads")
const describe = (error) => String((error && error.message) || error)
const open = () => {
  try {
    const Database = require(workerData.driver)
    const db = new Database(workerData.filename, { fileMustExist: true, timeout: 5000 })
    db.pragma("synchronous = " + workerData.synchronous)
    return db
  } catch (error) {
    parentPort.postMessage(describe(error))
    parentPort.close()
  }
}
const db = open()
if (db) {
  const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)")
  let reported = false
  const timer = setInterval(() => {
    try {
      checkpoint.get()
    } catch (error) {
      if (!reported) parentPort.postMessage(describe(error))
      reported = true
    }
  }, workerData.intervalMs)
  parentPort.on("message", () => {
    clearInterval(timer)
    db.close()
    parentPort.close()
  })
}
`

const driver = () => createRequire(import.meta.url).resolve("better-sqlite3")

/**
 * Checkpoint `filename` from a worker thread for as long as the scope is open; closing the scope
 * stops the timer and waits for the worker's connection to close. A worker that cannot open the
 * file or checkpoint, or that cannot start, is logged as a warning: the writer's own checkpoints
 * still keep the log bounded.
 */
export const backgroundCheckpoints = (options: CheckpointerOptions): Effect.Effect<void, never, Scope.Scope> =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const warn = (message: string) =>
      Runtime.runFork(runtime)(Effect.logWarning(`background checkpoints of ${options.filename}: ${message}`))
    const start = Effect.try(() => {
      const worker = new Worker(program, {
        eval: true,
        workerData: { driver: driver(), filename: options.filename, synchronous: options.synchronous, intervalMs: options.intervalMs }
      })
      worker.on("message", (message) => warn(String(message)))
      worker.on("error", (error) => warn(error.message))
      const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()))
      // The timer alone must not keep a process alive that has nothing else to do.
      worker.unref()
      return { worker, exited }
    })
    const stop = ({ exited, worker }: { readonly worker: Worker; readonly exited: Promise<void> }) =>
      Effect.promise(() => {
        worker.postMessage("stop")
        return exited
      })
    // Without a thread (the driver not found, threads refused) the writer's own checkpoints still run.
    yield* Effect.acquireRelease(start, stop).pipe(
      Effect.catchAll((error) => Effect.sync(() => warn(`not started: ${error.message}`)))
    )
  })
