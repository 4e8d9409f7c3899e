/** A file's bytes as they arrived, in the chunks they arrived in (never copied into one buffer). */
export interface Bytes {
  readonly chunks: ReadonlyArray<Uint8Array>
  readonly size: number
  /** The type the provider or the file store gave, when known. */
  readonly mimeType: string | null
}
