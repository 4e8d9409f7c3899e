/** Canonical JSON for hashing: the same value always gives the same text, whatever its key order. */
import { createHash } from "node:crypto"

const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === "object"
    ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]))
    : value

/** sha256 hex of the value's JSON with object keys sorted at every depth. */
export const canonicalHash = (value: unknown): string => createHash("sha256").update(JSON.stringify(canonical(value))).digest("hex")
