/** Forgetting over the API as the tests read it: the endpoint's answer, and a session's accounting after. */
import { SessionId } from "@verbatim/domain/Ids"
import { Effect } from "effect"
import { type ApiClient, client } from "./apiClient.js"

/** A forget endpoint's answer through the typed client, the fresh forgetting id as `<id>`. */
export const forgetOverApi = <E, R>(
  forget: (endpoints: ApiClient["Type"]["forget"]) => Effect.Effect<{ readonly forgetId: string }, E, R>
) => Effect.map(client((c) => forget(c.forget)), (forgot) => ({ ...forgot, forgetId: "<id>" }))

/** What a forgetting of Alice's (telegram:100000001) answers, with these counts. */
export const aliceForgot = (counts: { readonly messages: number; readonly sessions: number; readonly people: number }) => ({
  forgetId: "<id>",
  user: "telegram:100000001",
  ...counts
})

/** Each message of a session's accounting, read through the API, as "seq: its dispositions". */
export const places = (sessionId: string) =>
  Effect.map(client((c) => c.api.accounting({ path: { id: SessionId.make(sessionId) } })), (accounting) =>
    accounting.messages.map((m) => `${m.seq}: ${m.dispositions.map((d) => d._tag).join(", ")}`))
