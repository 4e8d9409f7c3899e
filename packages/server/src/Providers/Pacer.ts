/**
 * Sends paced to each provider's rate limits (the provider table's `sendRate`: overall, and per
 * chat), so a burst of replies (10,000 reminders due at 09:00) goes out as fast as the provider
 * takes them and no faster, instead of meeting 429s and their back-off. Each send is scheduled
 * against both limits (`Reply/Pacing`) and waits, on the `Clock`, for its slot. The limits are
 * this process's: two instances may together send up to twice the rate, and a 429 they meet is
 * still honoured by the outbox. `unpaced` is for tests that drive the outbox under a test clock,
 * and what `VERBATIM_PACE_REPLIES=false` chooses: a bot whose limits Telegram raised (paid
 * broadcasts take up to 1,000 messages a second), or a benchmark of the service's own overhead.
 */
import type { Provider } from "@verbatim/domain/Ids"
import { chatProviderRules, isChatProvider } from "@verbatim/domain/Inbound/Providers"
import { type Rate, schedule } from "@verbatim/domain/Reply/Pacing"
import { Clock, Config, Context, Duration, Effect, Layer } from "effect"

/** Sends go a tenth below the provider's rates: one delayed on its way does not land too close to the next. */
const margin = 0.9

const margined = (rates: { readonly overall: Rate; readonly perChat: Rate }) => ({
  overall: { ...rates.overall, perSecond: rates.overall.perSecond * margin },
  perChat: { ...rates.perChat, perSecond: rates.perChat.perSecond * margin }
})

/** How many chats' limits are kept before those already past are let go. */
const forgetPast = 10_000

export class Pacer extends Context.Tag("@verbatim/server/Pacer")<Pacer, {
  /** Wait until a send to `chat` on `provider` keeps within the provider's limits, and take that slot. */
  readonly slot: (provider: Provider, chat: string) => Effect.Effect<void>
}>() {
  static readonly live = Layer.sync(Pacer, () => {
    /** Each limit's theoretical arrival time (epoch ms), by provider, and by provider and chat. */
    const tats = new Map<string, number>()
    return Pacer.of({
      slot: (provider, chat) =>
        isChatProvider(provider)
          ? Effect.flatMap(Clock.currentTimeMillis, (now) => {
            const { overall, perChat } = margined(chatProviderRules[provider].sendRate)
            const chatKey = `${provider}\u0000${chat}`
            const { at, tats: [all, one] } = schedule([{ tat: tats.get(provider) ?? 0, rate: overall }, { tat: tats.get(chatKey) ?? 0, rate: perChat }], now)
            // A limit whose TAT has passed is as good as new: past many chats, those are let go.
            if (tats.size > forgetPast) for (const [key, tat] of tats) if (tat < now) tats.delete(key)
            tats.set(provider, all!)
            tats.set(chatKey, one!)
            return at > now ? Effect.sleep(Duration.millis(Math.ceil(at - now))) : Effect.void
          })
          : Effect.void
    })
  })

  static readonly unpaced = Layer.succeed(Pacer, Pacer.of({ slot: () => Effect.void }))

  /** Paced unless `VERBATIM_PACE_REPLIES` is `false`. */
  static readonly layerConfig = Layer.unwrapEffect(
    Effect.map(Config.withDefault(Config.boolean("VERBATIM_PACE_REPLIES"), true), (paced) => (paced ? Pacer.live : Pacer.unpaced))
  )
}
