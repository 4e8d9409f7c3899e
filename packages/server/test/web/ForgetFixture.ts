/**
 * What the forgetting page tests share: Alice's notes (`SubjectAccessFixture.ts`) and her session,
 * a form posted with a cookie, the form token a page carries, and a session's accounting as
 * "seq: disposition" lines.
 */
import { Effect } from "effect"
import { accountingOf } from "../apiClient.js"
import { Harness } from "../harness.js"

export const session = "telegram:100000001:100000001:1"
export const message = (seq: number) => `telegram:100000001:${seq}`
export const bob = "telegram:100000002"

/** A form posted with `cookie` (and any `headers`): its status, where it leads and its body. */
export const postForm = (cookie: string, path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  Effect.flatMap(Harness, ({ baseUrl }) =>
    Effect.promise(async () => {
      const response = await fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(form),
        redirect: "manual"
      })
      return { status: response.status, location: response.headers.get("location"), body: await response.text() }
    }))

/** The CSRF token a page's forms carry. */
export const tokenOf = (body: string) => /name="csrf" value="([^"]+)"/.exec(body)?.[1] ?? ""

/** Alice's session's messages, each as "seq: its dispositions" read through the API. */
export const places = Effect.map(accountingOf(session), (accounting) =>
  accounting.messages.map((m) => `${m.seq}: ${m.dispositions.map((d) => d._tag).join(", ")}`))
