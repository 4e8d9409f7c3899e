/**
 * HTML built by a template tag that escapes every interpolated value: text can never become
 * markup, so a note full of `<script>` renders as the characters it is.
 */

/** Markup that is already safe to send. */
export interface Html {
  readonly _tag: "Html"
  readonly value: string
}

type Value = Html | string | number | null | undefined | false | ReadonlyArray<Html>

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

/** Text as HTML text or attribute content. */
export const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => entities[c] ?? c)

/** Trusted markup, taken as it is (only for strings this module's callers built themselves). */
export const raw = (value: string): Html => ({ _tag: "Html", value })

const render = (value: Value): string => {
  if (value === null || value === undefined || value === false) return ""
  if (typeof value === "string") return escape(value)
  if (typeof value === "number") return String(value)
  if ("_tag" in value) return value.value
  return value.map((item) => item.value).join("")
}

/** `html\`<p>${text}</p>\``: strings and numbers escaped, `Html` and lists of it kept, nothing for null or false. */
export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Value>): Html =>
  raw(strings.reduce((out, piece, i) => out + piece + (i < values.length ? render(values[i]) : ""), ""))
