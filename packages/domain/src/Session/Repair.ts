/**
 * Text that comes from the model is made storable before it is recorded: U+0000 is removed and a
 * lone surrogate becomes U+FFFD. Neither store can keep them exactly (PostgreSQL refuses U+0000
 * outright), and a plan the store refuses would be lost; the sender's own text is never touched.
 */
import type { PlanWarning } from "../Decision.js"
import { wording } from "../WarningLog.js"

const notText = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** A string with U+0000 removed and lone surrogates replaced by U+FFFD. */
export const storableText = (text: string): string =>
  text.replace(notText, (found) => (found === "\u0000" ? "" : "\uFFFD"))

/** Every string inside a JSON-like value made storable; `repaired` counts the strings that changed. */
export const repairStrings = <A>(value: A): { readonly value: A; readonly repaired: number } => {
  let repaired = 0
  const fix = (text: string) => {
    const fixed = storableText(text)
    if (fixed !== text) repaired += 1
    return fixed
  }
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return fix(v)
    if (Array.isArray(v)) return v.map(walk)
    if (v === null || typeof v !== "object") return v
    const out: Record<string, unknown> = {}
    for (const [key, x] of Object.entries(v)) {
      // A cleaned key never lands on another key: no value is lost to a collision.
      let name = fix(key)
      while ((name !== key && Object.hasOwn(v, name)) || Object.hasOwn(out, name)) name += "\uFFFD"
      out[name] = walk(x)
    }
    return out
  }
  const fixed = walk(value) as A
  return { value: repaired === 0 ? value : fixed, repaired }
}

/** The warning a plan carries when its model text had to be repaired. */
export const repairWarning: PlanWarning = {
  code: "model-text-repaired",
  seqs: [],
  message: wording("model-text-repaired", [], "")
}
