/** The files a fake provider holds for download, with the faults a test can ask of them. */
import { Effect } from "effect"
import { createHash } from "node:crypto"

/** One file: its bytes and what the provider says of it. */
export interface FakeFile {
  readonly bytes: Uint8Array
  readonly mimeType: string
  /** The size the provider reports (the real one unless a test says otherwise, to stand for a file too large). */
  readonly declaredSize: number
  /** Base64 sha256 of the bytes, as WhatsApp gives it. */
  readonly sha256: string
}

/** What a fake's `files` offers a test. */
export interface FakeFiles {
  /** Hold `bytes` under `fileId`. */
  readonly add: (fileId: string, bytes: Uint8Array, options?: { readonly mimeType?: string; readonly declaredSize?: number }) => Effect.Effect<void>
  /** The next `times` lookups of `fileId` answer 500. */
  readonly failNext: (fileId: string, times: number) => Effect.Effect<void>
  /** File ids whose bytes were downloaded, in order (once per download). */
  readonly downloads: Effect.Effect<ReadonlyArray<string>>
  /** The next download of `fileId` is answered only once `release` runs; `requested` succeeds when it has begun. */
  readonly hold: (fileId: string) => Effect.Effect<{ readonly requested: Effect.Effect<void>; readonly release: Effect.Effect<void> }>
}

/** The store behind a fake: the test's side and the server's side. */
export const fakeFiles = () => {
  const files = new Map<string, FakeFile>()
  const failing = new Map<string, number>()
  const downloads: Array<string> = []
  const holds = new Map<string, { readonly begin: () => void; readonly released: Promise<void> }>()
  const test: FakeFiles = {
    add: (fileId, bytes, options = {}) =>
      Effect.sync(() =>
        void files.set(fileId, {
          bytes,
          mimeType: options.mimeType ?? "application/octet-stream",
          declaredSize: options.declaredSize ?? bytes.length,
          sha256: createHash("sha256").update(bytes).digest("base64")
        })
      ),
    failNext: (fileId, times) => Effect.sync(() => void failing.set(fileId, (failing.get(fileId) ?? 0) + times)),
    downloads: Effect.sync(() => [...downloads]),
    hold: (fileId) =>
      Effect.sync(() => {
        let begin = () => {}
        let release = () => {}
        const requested = new Promise<void>((resolve) => (begin = resolve))
        const released = new Promise<void>((resolve) => (release = resolve))
        holds.set(fileId, { begin: () => begin(), released })
        return { requested: Effect.promise(() => requested), release: Effect.sync(() => release()) }
      })
  }
  return {
    test,
    /** The file, `"fail"` when a test asked this lookup to fail, or undefined when there is none. */
    lookup: (fileId: string): FakeFile | "fail" | undefined => {
      const left = failing.get(fileId) ?? 0
      if (left > 0) {
        failing.set(fileId, left - 1)
        return "fail"
      }
      return files.get(fileId)
    },
    /** Undefined when a download of `fileId` may be answered now, else when it may (a test holds it). */
    held: (fileId: string): Promise<void> | undefined => {
      const hold = holds.get(fileId)
      if (hold === undefined) return undefined
      holds.delete(fileId)
      hold.begin()
      return hold.released
    },
    /** The file's bytes for a download, recorded. */
    download: (fileId: string): FakeFile | undefined => {
      const file = files.get(fileId)
      if (file !== undefined) downloads.push(fileId)
      return file
    }
  }
}
