/**
 * A page that is the same for everyone until the server is upgraded, served as a static file is:
 * compressed (brotli or gzip, as the client accepts), with an ETag per encoding and a 304 when the
 * client already holds it. Each encoding is made once, on the first request that wants it.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { promisify } from "node:util"
import { brotliCompress, constants, gzip } from "node:zlib"

export type Encoding = "br" | "gzip" | "identity"

/** The encoding to send for an Accept-Encoding header: brotli, else gzip, else none; `q=0` refuses one, `*` stands for any. */
export const chooseEncoding = (accept: string | undefined): Encoding => {
  const quality = new Map<string, number>()
  for (const part of (accept ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";")
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
    if (name !== undefined && name !== "") quality.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0)
  }
  const accepts = (name: string) => (quality.get(name) ?? quality.get("*") ?? 0) > 0
  return accepts("br") ? "br" : accepts("gzip") ? "gzip" : "identity"
}

/** Whether an If-None-Match header names `etag` (weakly compared, as RFC 9110 asks for GET), or is `*`. */
export const matches = (ifNoneMatch: string | undefined, etag: string): boolean =>
  ifNoneMatch !== undefined && ifNoneMatch.split(",").map((tag) => tag.trim().replace(/^W\//, "")).some((tag) => tag === "*" || tag === etag)

const encoders: Record<Encoding, (bytes: Uint8Array) => Promise<Uint8Array>> = {
  br: (bytes) => promisify(brotliCompress)(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
  gzip: (bytes) => promisify(gzip)(bytes, { level: 9 }),
  identity: (bytes) => Promise.resolve(bytes)
}

/** Serving `html` with `headers` (a CSP, say), compressed and revalidated: `respond` answers the request in context. */
export const make = (html: string, headers: Record<string, string>) =>
  Effect.gen(function*() {
    const bytes = new TextEncoder().encode(html)
    const hash = createHash("sha256").update(bytes).digest("base64url").slice(0, 22)
    const etagOf = (encoding: Encoding) => `"${hash}${encoding === "identity" ? "" : `-${encoding}`}"`
    const encoded = {
      br: yield* Effect.cached(Effect.promise(() => encoders.br(bytes))),
      gzip: yield* Effect.cached(Effect.promise(() => encoders.gzip(bytes))),
      identity: Effect.succeed(bytes)
    }
    const respond = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const encoding = chooseEncoding(request.headers["accept-encoding"])
      const etag = etagOf(encoding)
      const common = { ...headers, "cache-control": "no-cache", etag, vary: "Accept-Encoding" }
      // The page changes only with the server, and then its hash does: any of its tags is still good.
      if ((["br", "gzip", "identity"] as const).some((e) => matches(request.headers["if-none-match"], etagOf(e)))) {
        return HttpServerResponse.empty({ status: 304, headers: common })
      }
      return HttpServerResponse.uint8Array(yield* encoded[encoding], {
        contentType: "text/html; charset=utf-8",
        headers: encoding === "identity" ? common : { ...common, "content-encoding": encoding }
      })
    })
    return { respond }
  })
