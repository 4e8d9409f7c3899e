/**
 * Attachment bytes, content-addressed by sha256, in the same database as the log so that every
 * instance sharing the log shares them. Not a projection: nothing here can be rebuilt from events,
 * so `rebuild` never touches these tables. A blob's row is written last, in the transaction that
 * writes its pieces, so a blob that is listed is whole.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Context, Effect, Layer, Option } from "effect"
import { createHash } from "node:crypto"
import type { StoreError } from "./EventStore.js"
import { toStoreError } from "./internal/Rows.js"

/** A file's bytes in the chunks they arrived in (never copied into one buffer). */
export interface Bytes {
  readonly chunks: ReadonlyArray<Uint8Array>
  readonly size: number
  /** The type the provider or the store gave, when known. */
  readonly mimeType: string | null
}

/** What the store keeps about a blob. */
export interface StoredBlob {
  /** Lowercase hex. */
  readonly sha256: string
  readonly size: number
  readonly mimeType: string | null
}

/** Pieces are at most this many bytes: big enough to keep rows few, small enough to keep one in memory. */
export const pieceBytes = 1024 * 1024

/** The lowercase hex sha256 of the bytes, over their chunks. */
export const sha256Of = (chunks: ReadonlyArray<Uint8Array>): string => {
  const hash = createHash("sha256")
  for (const chunk of chunks) hash.update(chunk)
  return hash.digest("hex")
}

/** The chunks regrouped into pieces of at most `size` bytes, one piece built at a time. */
export function* piecesOf(chunks: ReadonlyArray<Uint8Array>, size: number = pieceBytes): Generator<Uint8Array> {
  let piece = new Uint8Array(size)
  let filled = 0
  for (const chunk of chunks) {
    let offset = 0
    while (offset < chunk.length) {
      const take = Math.min(size - filled, chunk.length - offset)
      piece.set(chunk.subarray(offset, offset + take), filled)
      filled += take
      offset += take
      if (filled === size) {
        yield piece
        piece = new Uint8Array(size)
        filled = 0
      }
    }
  }
  if (filled > 0) yield piece.subarray(0, filled)
}

const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

interface BlobRow {
  readonly size: number | string
  readonly mime_type: string | null
}

export class Blobs extends Context.Tag("@verbatim/projections/Blobs")<Blobs, {
  /** Store the bytes under their sha256 (once: storing the same bytes again writes nothing). */
  readonly put: (bytes: Bytes) => Effect.Effect<StoredBlob, StoreError>
  /** The bytes stored under `sha256`, when there are any. */
  readonly get: (sha256: string) => Effect.Effect<Option.Option<Bytes>, StoreError>
  /** What is stored under `sha256` (its size and type) without its bytes, when anything is. */
  readonly about: (sha256: string) => Effect.Effect<Option.Option<Omit<StoredBlob, "sha256">>, StoreError>
  /**
   * The bytes stored under `sha256` from `start` up to `end` (exclusive, within the size), read
   * from the pieces that hold them alone: a player's range of a long recording costs that range.
   * None when the pieces stored under `sha256` do not reach `end` (no such file, or it was erased).
   */
  readonly range: (sha256: string, start: number, end: number) => Effect.Effect<Option.Option<Omit<Bytes, "mimeType">>, StoreError>
}>() {}

/** The part of `pieces` (in order, each with its length) from `start` up to `end`, without copying. */
const cut = (pieces: ReadonlyArray<Uint8Array>, offsets: ReadonlyArray<number>, start: number, end: number): Array<Uint8Array> =>
  pieces.flatMap((piece, i) => {
    const from = Math.max(0, start - offsets[i]!)
    const to = Math.min(piece.length, end - offsets[i]!)
    return to > from ? [piece.subarray(from, to)] : []
  })

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient
  const meta = (sha256: string) => sql<BlobRow>`SELECT size, mime_type FROM media_blobs WHERE sha256 = ${sha256}`
  return Blobs.of({
    put: (bytes) => {
      const sha256 = sha256Of(bytes.chunks)
      const stored: StoredBlob = { sha256, size: bytes.size, mimeType: bytes.mimeType }
      return Effect.gen(function*() {
        if ((yield* meta(sha256)).length > 0) return stored
        let ordinal = 0
        for (const piece of piecesOf(bytes.chunks)) {
          yield* sql`INSERT INTO media_blob_pieces (sha256, ordinal, bytes) VALUES (${sha256}, ${ordinal}, ${buffer(piece)})
            ON CONFLICT DO NOTHING`
          ordinal += 1
        }
        yield* sql`INSERT INTO media_blobs (sha256, size, mime_type, pieces) VALUES (${sha256}, ${bytes.size}, ${bytes.mimeType}, ${ordinal})
          ON CONFLICT DO NOTHING`
        return stored
      }).pipe(sql.withTransaction, Effect.mapError(toStoreError), Effect.withSpan("Blobs.put", { attributes: { size: bytes.size } }))
    },
    get: Effect.fn("Blobs.get")(function*(sha256: string) {
      const [row] = yield* meta(sha256)
      if (row === undefined) return Option.none<Bytes>()
      const pieces = yield* sql<{ readonly bytes: Uint8Array }>`SELECT bytes FROM media_blob_pieces WHERE sha256 = ${sha256} ORDER BY ordinal`
      return Option.some<Bytes>({ chunks: pieces.map((p) => p.bytes), size: Number(row.size), mimeType: row.mime_type })
    }, Effect.mapError(toStoreError)),
    about: (sha256) =>
      meta(sha256).pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => ({ size: Number(row.size), mimeType: row.mime_type }))),
        Effect.mapError(toStoreError)
      ),
    range: Effect.fn("Blobs.range")(function*(sha256: string, start: number, end: number) {
      // Each piece's length is read without its bytes; only the pieces the range touches are read whole.
      const lengths = yield* sql<{ readonly ordinal: number; readonly n: number | string }>`
        SELECT ordinal, ${sql.literal(sql.onDialectOrElse({ pg: () => "octet_length(bytes)", orElse: () => "length(bytes)" }))} AS n
        FROM media_blob_pieces WHERE sha256 = ${sha256} ORDER BY ordinal`
      let at = 0
      const spans = lengths.map((piece) => ({ ordinal: Number(piece.ordinal), from: at, to: (at += Number(piece.n)) }))
      if (at < end) return Option.none()
      const touched = spans.filter((span) => span.from < end && span.to > start)
      const pieces = touched.length === 0 ? [] : yield* sql<{ readonly ordinal: number; readonly bytes: Uint8Array }>`SELECT ordinal, bytes
        FROM media_blob_pieces WHERE sha256 = ${sha256} AND ${sql.in("ordinal", touched.map((span) => span.ordinal))} ORDER BY ordinal`
      // A file erased between the two reads has none of its pieces: it is not there.
      if (pieces.length !== touched.length || pieces.some((piece, i) => Number(piece.ordinal) !== touched[i]!.ordinal)) return Option.none()
      const chunks = cut(pieces.map((p) => p.bytes), touched.map((span) => span.from), start, end)
      return Option.some({ chunks, size: chunks.reduce((n, c) => n + c.length, 0) })
    }, Effect.mapError(toStoreError))
  })
})

/** Blobs on the store's database. */
export const layer: Layer.Layer<Blobs, never, SqlClient> = Layer.effect(Blobs, make)

/** The blob tables (a migration): `BLOB` on SQLite, `BYTEA` on PostgreSQL. */
export const blobTables = Effect.gen(function*() {
  const sql = yield* SqlClient
  const binary = sql.onDialectOrElse({ pg: () => "BYTEA", orElse: () => "BLOB" })
  yield* sql`CREATE TABLE media_blobs (sha256 TEXT PRIMARY KEY, size BIGINT NOT NULL, mime_type TEXT, pieces INTEGER NOT NULL)`
  yield* sql`CREATE TABLE media_blob_pieces (sha256 TEXT NOT NULL, ordinal INTEGER NOT NULL, bytes ${sql.literal(binary)} NOT NULL,
    PRIMARY KEY (sha256, ordinal))`
})
