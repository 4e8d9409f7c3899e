/**
 * Progress of long runs (replay, import) on stderr, so stdout stays the command's
 * result: a bar with counts and rate on a terminal, a plain line every tenth of the way otherwise.
 */
import { SingleBar } from "cli-progress"
import { Clock, Effect, type Scope } from "effect"

/** A running progress report. */
export interface Progress {
  /** Count `by` more items done (default 1). */
  readonly advance: (by?: number) => Effect.Effect<void>
}

const rate = (done: number, startedAt: number, now: number): string =>
  `${Math.round((done * 1000) / Math.max(1, now - startedAt))}/s`

const onTerminal = (label: string, total: number) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const bar = new SingleBar({
        format: `${label} [{bar}] {value}/{total} {rate}`,
        stream: process.stderr,
        hideCursor: true
      })
      bar.start(total, 0, { rate: "" })
      return bar
    }),
    (bar) => Effect.sync(() => bar.stop())
  )

/** Where plain progress lines go, and whether that is a terminal (then a bar is drawn on stderr). */
export interface Sink {
  readonly tty: boolean
  readonly write: (line: string) => void
}

/** stderr. */
export const stderr: Sink = {
  tty: process.stderr.isTTY === true,
  write: (line) => process.stderr.write(line)
}

/** Start reporting `total` items under `label`; the report ends with the scope. */
export const start = (label: string, total: number, sink: Sink = stderr): Effect.Effect<Progress, never, Scope.Scope> =>
  Effect.gen(function*() {
    const startedAt = yield* Clock.currentTimeMillis
    let done = 0
    if (sink.tty) {
      const bar = yield* onTerminal(label, total)
      return {
        advance: (by = 1) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            done += by
            bar.update(done, { rate: rate(done, startedAt, now) })
          })
      }
    }
    const step = Math.max(1, Math.ceil(total / 10))
    return {
      advance: (by = 1) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const before = Math.floor(done / step)
          done += by
          return Math.floor(done / step) > before || done === total
            ? Effect.sync(() => sink.write(`${label}: ${done}/${total} (${rate(done, startedAt, now)})\n`))
            : Effect.void
        })
    }
  })
