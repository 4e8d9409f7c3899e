/** Forgetting over the API as the tests read it: the endpoint's answer, and a session's accounting after. */
import { Effect } from "effect"
import { api } from "./harness.js"

/** POST a forget endpoint: its status and answer, the fresh forgetting id as `<id>`. */
export const forgetOverApi = (path: string) =>
  Effect.map(api(path, { method: "POST" }), (reply) => [reply.status, { ...(reply.json as object), forgetId: "<id>" }] as const)

/** What a forgetting of Alice's (telegram:100000001) answers, with these counts. */
export const aliceForgot = (counts: { readonly messages: number; readonly sessions: number; readonly people: number }) => ({
  forgetId: "<id>",
  user: "telegram:100000001",
  ...counts
})

/** Each message of a session's accounting as "seq: its dispositions". */
export const places = (json: unknown) =>
  (json as { messages: ReadonlyArray<{ seq: number; dispositions: ReadonlyArray<{ _tag: string }> }> }).messages.map((m) =>
    `${m.seq}: ${m.dispositions.map((d) => d._tag).join(", ")}`)
