/**
 * List prices of the models the planner may call, for replay reports. Prices are US dollars per
 * million tokens as the provider lists them, before prompt-cache discounts; a model not listed
 * has no price (reports then show tokens only).
 */
import { Option } from "effect"

export interface Price {
  readonly inputPerMillion: number
  readonly outputPerMillion: number
}

/** By model id prefix, most specific first (ids carry a date suffix, e.g. `claude-sonnet-4-5-20250929`). */
const listPrices: ReadonlyArray<readonly [string, Price]> = [
  ["claude-sonnet-5", { inputPerMillion: 2, outputPerMillion: 10 }],
  ["claude-opus-4", { inputPerMillion: 15, outputPerMillion: 75 }],
  ["claude-sonnet-4", { inputPerMillion: 3, outputPerMillion: 15 }],
  ["claude-haiku-4-5", { inputPerMillion: 1, outputPerMillion: 5 }],
  ["claude-3-5-haiku", { inputPerMillion: 0.8, outputPerMillion: 4 }]
]

export const listPrice = (model: string): Option.Option<Price> =>
  Option.fromNullable(listPrices.find(([prefix]) => model.startsWith(prefix))?.[1])

/** How calls are billed: one by one at the list price, or through Message Batches at half of it. */
export type Rate = "list" | "batch"

const shareOfList: Readonly<Record<Rate, number>> = { list: 1, batch: 0.5 }

/** What the tokens cost at the model's list price (or the batch rate), in dollars, when the price is known. */
export const cost = (model: string, tokens: { readonly input: number; readonly output: number }, rate: Rate = "list"): Option.Option<number> =>
  Option.map(
    listPrice(model),
    (price) => (shareOfList[rate] * (tokens.input * price.inputPerMillion + tokens.output * price.outputPerMillion)) / 1_000_000
  )

/** How a cost at `rate` is labelled in reports. */
export const rateLabel = (rate: Rate): string => (rate === "list" ? "at list price" : "at batch price, half the list price")

/** `$0.0123`: four decimals, since one session costs cents. */
export const formatDollars = (dollars: number): string => `$${dollars.toFixed(4)}`
