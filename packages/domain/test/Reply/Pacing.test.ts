/** Pacing sends by the generic cell rate algorithm: what the sender schedules the provider admits, and no window holds more than the limit lets through. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { admit, earliest, type Rate, schedule } from "../../src/Reply/Pacing.js"

const rate = fc.record({ perSecond: fc.constantFrom(0.5, 1, 1 / 6, 30, 80), burst: fc.integer({ min: 1, max: 30 }) })
/** Requests at non-decreasing times over a few seconds, each to one of a few chats. */
const requests = fc.array(fc.tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 120 })

/** Schedule every request in order against the overall limit and its chat's; the send times. */
const paced = (overall: Rate, perChat: Rate, asked: ReadonlyArray<readonly [number, number]>) => {
  let now = 0
  let all = 0
  const chats = new Map<number, number>()
  return asked.map(([gap, chat]) => {
    now += gap
    const sent = schedule([{ tat: all, rate: overall }, { tat: chats.get(chat) ?? 0, rate: perChat }], now)
    all = sent.tats[0]!
    chats.set(chat, sent.tats[1]!)
    return { at: sent.at, chat, asked: now }
  })
}

describe("pacing sends", () => {
  it("never sends before it is asked, and what it schedules a provider checking the same limits admits", () => {
    fc.assert(fc.property(rate, rate, requests, (overall, perChat, asked) => {
      const sends = paced(overall, perChat, asked)
      let all = 0
      const chats = new Map<number, number>()
      for (const send of sends) {
        expect(send.at).toBeGreaterThanOrEqual(send.asked)
        const a = admit(all, overall, send.at)
        const c = admit(chats.get(send.chat) ?? 0, perChat, send.at)
        expect("tat" in a && "tat" in c).toBe(true)
        if ("tat" in a) all = a.tat
        if ("tat" in c) chats.set(send.chat, c.tat)
      }
    }))
  })

  it("lets through no more than the burst plus the rate's share in any window", () => {
    fc.assert(fc.property(rate, requests, fc.integer({ min: 1, max: 5_000 }), (overall, asked, window) => {
      const times = paced(overall, { perSecond: 1_000, burst: 1_000 }, asked).map((s) => s.at).sort((a, b) => a - b)
      for (const start of times) {
        const inside = times.filter((t) => t >= start && t < start + window).length
        expect(inside).toBeLessThanOrEqual(overall.burst + Math.ceil((window * overall.perSecond) / 1000))
      }
    }))
  })

  it("named examples: Telegram's 30 a second, evenly; one chat at one a second after a burst of three", () => {
    const telegram = { perSecond: 30, burst: 1 }
    expect(Array.from({ length: 31 }, (_, i) => i).reduce<{ tat: number; at: Array<number> }>((s) => {
      const next = schedule([{ tat: s.tat, rate: telegram }], 0)
      return { tat: next.tats[0]!, at: [...s.at, next.at] }
    }, { tat: 0, at: [] }).at.map((t) => Math.round(t)).filter((_, i) => i < 3 || i >= 29)).toEqual([0, 33, 67, 967, 1000])
    const chat = { perSecond: 1, burst: 3 }
    let tat = 0
    const at: Array<number> = []
    for (let i = 0; i < 5; i++) {
      const next = schedule([{ tat, rate: chat }], 0)
      tat = next.tats[0]!
      at.push(next.at)
    }
    expect(at).toEqual([0, 0, 0, 1000, 2000])
    expect(admit(tat, chat, 2500)).toEqual({ waitMs: 500 })
    expect(earliest(0, chat, 42)).toBe(42)
  })
})
