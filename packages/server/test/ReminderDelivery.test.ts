/**
 * Delivery decided once: passes racing over the same due reminder (two instances' loops, or a
 * pass run again after a crash between queueing the reply and recording the delivery) queue one
 * reply and record one delivery, on SQLite and on PostgreSQL.
 */
import { describe, expect, it } from "@effect/vitest"
import { ReplyId } from "@verbatim/domain/Ids"
import type { Services } from "@verbatim/projections/Store"
import * as Database from "@verbatim/testkit/Database"
import * as G from "@verbatim/testkit/Given"
import * as R from "@verbatim/testkit/GivenReminders"
import { Effect, Layer, Option } from "effect"
import * as Delivery from "../src/Reminders/Delivery.js"
import { ReminderTemplate } from "../src/Reminders/Template.js"
import { WebLinks } from "../src/WebLinks.js"

const text = "Ana moves in May, remind me tomorrow"
const quote = "remind me tomorrow"

const races = (name: string, layer: () => Layer.Layer<Services, unknown>) =>
  it.live(`${name}: passes racing over a due reminder queue one reply and record one delivery; a reply queued before a crash is not queued again`, () =>
    Effect.gen(function*() {
      yield* G.given(
        [G.sessionStream("s1"), [G.sessionOpened("s1"), G.messageReceived("s1", 1, text)]],
        [R.stream("r1"), [R.reminderScheduled("r1", "s1", 1, quote, { start: text.indexOf(quote), dueIn: 60 })]]
      )
      // The first pass queued the reply and died before recording the delivery: its reply is there already.
      const replyId = ReplyId.make(`reminder:r1:${R.due(60).dueAt.epochMillis}`)
      yield* G.given([`reply-${replyId}`, [G.replyQueued(replyId, "Reminder: remind me tomorrow")]])
      yield* Effect.all([Delivery.pass, Delivery.pass, Delivery.pass], { concurrency: "unbounded" })
      yield* Delivery.pass
      const reminder = (yield* G.thenStream(R.stream("r1"))).map((e) => e.event._tag)
      const reply = (yield* G.thenStream(`reply-${replyId}`)).map((e) => e.event._tag)
      expect({ reminder, reply }).toEqual({ reminder: ["ReminderScheduled", "ReminderDelivered"], reply: ["ReplyQueued"] })
    }).pipe(Effect.provide(Layer.mergeAll(ReminderTemplate.layer(null), Layer.succeed(WebLinks, { publicUrl: Option.none() }), layer()))))

describe("reminder delivery", () => {
  races("SQLite", () => Database.sqlite())
  races("PostgreSQL", () => Database.pg)
})
