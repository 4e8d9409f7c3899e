/** A Messages API answer in the real wire format, as the fakes send it. */

/** Usage numbers a reply reports; unset ones are 0. */
export interface FakeUsage {
  readonly input_tokens?: number
  readonly output_tokens?: number
  readonly cache_creation_input_tokens?: number
  readonly cache_read_input_tokens?: number
}

export const fakeMessage = (id: string, model: string, content: ReadonlyArray<unknown>, stopReason: string, usage: FakeUsage) => ({
  id,
  type: "message",
  role: "assistant",
  model,
  content,
  stop_reason: stopReason,
  stop_sequence: null,
  usage: {
    input_tokens: usage.input_tokens ?? 0,
    output_tokens: usage.output_tokens ?? 0,
    cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: usage.cache_read_input_tokens ?? 0
  }
})

/** The name of the request's first tool (the one the planner offers), `record_plan` when there is none. */
export const toolName = (body: unknown): string =>
  (body as { tools?: ReadonlyArray<{ name?: string }> } | null)?.tools?.[0]?.name ?? "record_plan"
