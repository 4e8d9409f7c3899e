/**
 * Capture in batches: every webhook delivery queued in one turn of the event loop is captured
 * together. Each conversation's session is resolved once, every plain capture (a new message from
 * an allowed sender that is not a command) is decided on the session's fold in arrival order, and
 * all the appends commit in one transaction (`EventStore.appendBatch`). The rest go one item at a
 * time through `Dispatch.handle`, in their conversation's place: commands, edits, answers,
 * strangers, a conversation with such work still in flight, and the captures of a conversation
 * whose fold refused them or whose append did not commit (another writer got there first, a
 * redelivery among them, the store refused it).
 */
import type { Ignored, Inbound, NewMessage } from "@verbatim/domain/Inbound/Inbound"
import { botCommand } from "@verbatim/domain/Inbound/Commands"
import { type SessionId, userIdOf } from "@verbatim/domain/Ids"
import { Command } from "@verbatim/domain/Session/Commands"
import { sessionDecider } from "@verbatim/domain/Session/Decide"
import type * as State from "@verbatim/domain/Session/State"
import { sessionStream } from "@verbatim/domain/Streams"
import type { StoreError } from "@verbatim/projections/EventStore"
import { FoldCache } from "@verbatim/projections/FoldCache"
import type { Conversation } from "@verbatim/projections/SessionLookups"
import { DateTime, Effect, Exit, Fiber, FiberId, type Scope } from "effect"
import { ConversationLocks, type Place } from "./ConversationLocks.js"
import { conversationKey, conversationOf, keepOpen, keyOf, knownOpen, targetSession } from "./Conversations.js"
import * as Dispatch from "./Dispatch.js"
import { botUsername } from "./Ingest.js"
import { ServerConfig } from "../ServerConfig.js"
import * as Runner from "../Runner.js"
import { type Folded, folded, knownFold } from "../Sessions.js"

/** One webhook request's items, as decoded, and when it arrived. */
export interface Delivery {
  readonly items: ReadonlyArray<Inbound>
  readonly receivedAt: number
}

/** Per item, what handling it did or why it failed. */
export type ItemOutcomes = ReadonlyArray<Exit.Exit<Dispatch.Handled, StoreError>>

/** A delivery's outcome: known when its batch committed, or an effect that waits for work handed off. */
export type Settled = Effect.Effect<ItemOutcomes>

interface Slot {
  readonly item: Inbound
  readonly delivery: number
  readonly index: number
}

interface Group {
  readonly key: string
  readonly conversation: Conversation
  readonly slots: Array<Slot>
}

/** A conversation's captures decided on its session's fold: one append, and the state it leaves. */
interface Decided extends Runner.Decided<State.SessionState> {
  readonly group: Group
  readonly sessionId: SessionId
}

/**
 * Decide a conversation's captures on its session's fold, as one append: all of them commit or
 * none does. None (null) when the fold refuses one (its session closed meanwhile, say) or the
 * same message comes twice: then they go one by one, which reads afresh.
 */
const decideOn = (group: Group, sessionId: SessionId, start: Folded, at: (slot: Slot) => DateTime.Utc): Decided | null => {
  const messages = group.slots.map((s) => s.item as NewMessage)
  if (new Set(messages.map((m) => m.providerMessageId)).size < messages.length) return null
  const commands = messages.map((message, i) => Command.Capture({ sessionId, message, fromEdit: null, now: at(group.slots[i]!) }))
  const decided = Runner.decideAll(sessionDecider, start.state, commands)
  if (decided === null) return null
  const { events, state } = decided
  const append = { stream: sessionStream(sessionId), expectedVersion: start.version, events, options: { idempotencyKeys: messages.map(keyOf) } }
  return { group, sessionId, append, state }
}

/** `decideOn` the session and fold this process remembers (no effect, no read); undefined when it does not remember both. */
const decideFromMemory = (cache: FoldCache["Type"], group: Group, at: (slot: Slot) => DateTime.Utc): Decided | null | undefined => {
  const sessionId = knownOpen(cache, group.conversation)
  if (sessionId === undefined) return undefined
  const start = knownFold(cache, sessionId)
  return start === undefined ? undefined : decideOn(group, sessionId, start, at)
}

/** `decideOn` the conversation's session and fold as read now. */
const decideAfterRead = (group: Group, at: (slot: Slot) => DateTime.Utc) =>
  Effect.gen(function*() {
    const sessionId = yield* targetSession(group.conversation)
    return decideOn(group, sessionId, yield* folded(sessionId), at)
  })

/** Capture a batch of deliveries; one `Settled` per delivery, in order. Work handed off runs in `scope`. */
export const capture = Effect.fn("Capture.batch")(function*(deliveries: ReadonlyArray<Delivery>, scope: Scope.Scope) {
  const settings = yield* ServerConfig
  const bot = yield* botUsername
  const locks = yield* ConversationLocks
  const cache = yield* FoldCache
  const context = yield* Effect.context<Dispatch.Requirements>()
  const outcomes: Array<Array<Exit.Exit<Dispatch.Handled, StoreError>>> = deliveries.map(() => [])
  const handedOff: Array<Array<Fiber.Fiber<void>>> = deliveries.map(() => [])
  const plain = (item: Inbound): item is NewMessage =>
    item._tag === "NewMessage" && item.provider !== "web" && settings.allowedSenders.has(userIdOf(item.provider, item.senderId)) &&
    botCommand(item, bot) === null

  /** Run items one at a time in a place taken now, each recording its own outcome. */
  const oneByOne = (place: Place, slots: ReadonlyArray<Slot>) =>
    Effect.gen(function*() {
      const run = Effect.forEach(slots, (slot) =>
        Effect.map(Effect.exit(Dispatch.handle(slot.item)), (exit) => void (outcomes[slot.delivery]![slot.index] = exit)), { discard: true })
      // Interruptible: a batch runs uninterruptibly (it is committed once taken), and a fiber
      // forked there would otherwise inherit that and hold up the service's shutdown.
      const fiber = yield* Effect.forkIn(Effect.interruptible(place(Effect.provide(run, context))), scope)
      for (const delivery of new Set(slots.map((s) => s.delivery))) handedOff[delivery]!.push(fiber)
    })

  const groups = new Map<string, Group>()
  const ignored: Array<Slot & { readonly item: Ignored }> = []
  deliveries.forEach((delivery, d) =>
    delivery.items.forEach((item, index) => {
      if (item._tag === "Ignored") return void ignored.push({ item, delivery: d, index })
      const conversation = conversationOf(item)
      const key = conversationKey(conversation)
      const group = groups.get(key) ?? { key, conversation, slots: [] }
      groups.set(key, group)
      group.slots.push({ item, delivery: d, index })
    }))
  for (const slot of ignored) outcomes[slot.delivery]![slot.index] = Exit.succeed(yield* Dispatch.ignore(slot.item))

  const at = (slot: Slot) => DateTime.unsafeMake(deliveries[slot.delivery]!.receivedAt)
  const decided: Array<Decided> = []
  for (const group of groups.values()) {
    const batchable = group.slots.every((s) => plain(s.item)) && !locks.isBusy(group.key)
    // Most conversations are remembered from their last capture and cost no effect here. A read
    // that fails is tried again, and reported, by the one-by-one path.
    const remembered = batchable ? decideFromMemory(cache, group, at) : null
    const decision = remembered !== undefined ? remembered : yield* Effect.orElseSucceed(decideAfterRead(group, at), () => null)
    if (decision === null) yield* oneByOne(locks.reserve(group.key), group.slots)
    else decided.push(decision)
  }
  const appended = yield* Runner.runBatch(decided)
  for (const [i, d] of decided.entries()) {
    const exit = appended[i]!
    if (Exit.isSuccess(exit) && exit.value._tag === "Appended") {
      for (const slot of d.group.slots) outcomes[slot.delivery]![slot.index] = Exit.succeed("captured")
      keepOpen(cache, d.group.conversation, d.sessionId)
    } else {
      // A redelivery among them, another writer first, or a store that refused the append (one
      // message it cannot keep must not keep the others out): each again on its own, from a fresh read.
      if (Exit.isFailure(exit)) keepOpen(cache, d.group.conversation, null)
      yield* oneByOne(locks.reserve(d.group.key), d.group.slots)
    }
  }
  // An item whose work handed off was stopped (the service shutting down) has no outcome: it
  // counts as interrupted, so its request is not acknowledged and the provider delivers it again.
  const settled = (d: number) =>
    deliveries[d]!.items.map((_, i) => outcomes[d]![i] ?? Exit.interrupt(FiberId.none))
  return deliveries.map((_, d): Settled =>
    handedOff[d]!.length === 0
      ? Exit.succeed(settled(d))
      : Effect.map(Effect.forEach(handedOff[d]!, Fiber.await, { discard: true }), () => settled(d))
  )
})
