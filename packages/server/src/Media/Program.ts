/**
 * Running one of the local readers' programs (those `Programs.ts` names: `tesseract`, `ffmpeg`,
 * `ffprobe`, `pdftotext`, `pdftoppm`) on bytes that came from a stranger: no shell, arguments as a
 * list, a time limit after which the program is killed, a cap on what it may print, and the
 * program killed when the fiber that waits for it is interrupted. A program that is not installed says so by name.
 */
import { Data, Duration, Effect } from "effect"
import { execFile } from "node:child_process"
import type { ProgramName } from "./Programs.js"

export class ProgramError extends Data.TaggedError("ProgramError")<{
  readonly program: ProgramName
  /** Not installed: no later try can succeed until the operator installs it. */
  readonly missing: boolean
  /** Killed at its time limit. */
  readonly timedOut: boolean
  /** Its exit code, when it ran and exited. */
  readonly exitCode: number | null
  /** The last of what it wrote to stderr, for the log and the reason a user reads. */
  readonly stderr: string
}> {
  override get message() {
    if (this.missing) return `${this.program} is not installed`
    if (this.timedOut) return `${this.program} took too long`
    return `${this.program} failed${this.exitCode === null ? "" : ` (exit ${this.exitCode})`}${this.stderr === "" ? "" : `: ${this.stderr}`}`
  }
}

export interface RunOptions {
  /** Written to the program's stdin, which is then closed; without it stdin is empty. */
  readonly input?: Uint8Array
  readonly timeout: Duration.DurationInput
  /** Most bytes of stdout kept; past it the program is killed and fails. */
  readonly maxOutput?: number
}

/** The last line or two of stderr, short enough for a reason. */
const tail = (stderr: Buffer | string): string => {
  const lines = stderr.toString().trim().split("\n").map((line) => line.trim()).filter((line) => line !== "")
  return lines.slice(-2).join(" ").slice(-300)
}

/** What a program that ran wrote. */
export interface Output {
  readonly stdout: Buffer
  readonly stderr: string
}

/** Run `program` with `args`; what it wrote, or why it failed. */
export const run = (program: ProgramName, args: ReadonlyArray<string>, options: RunOptions) =>
  Effect.async<Output, ProgramError>((resume, signal) => {
    const child = execFile(program, [...args], {
      encoding: "buffer",
      maxBuffer: options.maxOutput ?? 64 * 1024 * 1024,
      timeout: Duration.toMillis(options.timeout),
      killSignal: "SIGKILL",
      signal,
      windowsHide: true
    }, (error, stdout, stderr) => {
      if (error === null) return resume(Effect.succeed({ stdout, stderr: stderr.toString() }))
      const code = (error as NodeJS.ErrnoException).code
      resume(Effect.fail(
        new ProgramError({
          program,
          missing: code === "ENOENT",
          timedOut: error.killed === true && error.signal === "SIGKILL" && code !== "ERR_CHILD_PROCESS_STDIO_MAXBUFFER",
          exitCode: typeof error.code === "number" ? error.code : null,
          stderr: code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER" ? "it wrote more than is read" : tail(stderr)
        })
      ))
    })
    child.stdin?.on("error", () => undefined)
    child.stdin?.end(options.input ?? new Uint8Array(0))
  })

/**
 * Whether `program` runs at all (`program --version` succeeds), and then its name and version
 * (`tesseract 5.3.0`, `pdftotext 22.12.0`) from the first line it writes, on stdout or stderr.
 */
export const version = (program: ProgramName, args: ReadonlyArray<string> = ["--version"]) =>
  run(program, args, { timeout: Duration.seconds(10) }).pipe(
    Effect.map(({ stderr, stdout }) => {
      const first = `${stdout.toString()}\n${stderr}`.trim().split("\n")[0] ?? ""
      const number = /\d+(?:\.\d+)+/.exec(first)?.[0]
      return number === undefined ? program : `${program} ${number}`
    }),
    Effect.option
  )
