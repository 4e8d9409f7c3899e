/**
 * Every read model's projection, in the order they apply to each event, and the event types no
 * read model records. Both the Projector and Load find an event's projections here.
 */
import type { EventType } from "@verbatim/domain/Events"
import { Asks } from "./Asks.js"
import { Erasures } from "./Erasures.js"
import { Instructions } from "./Instructions.js"
import { Messages } from "./Messages.js"
import { NoteCuration } from "./NoteCuration.js"
import { Notes } from "./Notes.js"
import { People } from "./People.js"
import { Plans } from "./Plans.js"
import type { AnyProjection } from "./Projection.js"
import { Questions } from "./Questions.js"
import { Reminders } from "./Reminders.js"
import { Replies } from "./Replies.js"
import { Sessions } from "./Sessions.js"
import { UserZones } from "./UserZones.js"

/**
 * Messages comes before Notes and Instructions: on an edit they read the text it has just
 * changed. People comes before NoteCuration: a merge's notes take the name `into` has then. The
 * others read only rows earlier events wrote, so their order is free.
 */
export const projections: ReadonlyArray<AnyProjection> = [
  Sessions,
  Messages,
  Plans,
  Notes,
  Questions,
  Instructions,
  People,
  NoteCuration,
  Replies,
  Reminders,
  UserZones,
  Asks,
  Erasures
]

/**
 * Event types recorded in the log for audit only, changing no read-model row: a sign-in or
 * sign-out is a fact, not a view; an operator's read is shown to its user from their stream.
 */
export const notProjected: ReadonlyArray<EventType> = ["WebSignIn", "WebSignedOut", "OperatorRead"]

const byType = new Map<EventType, Array<AnyProjection>>()
for (const projection of projections) {
  for (const type of projection.canHandle) {
    const handlers = byType.get(type) ?? []
    handlers.push(projection)
    byType.set(type, handlers)
  }
}

const none: ReadonlyArray<AnyProjection> = []

/** The projections that handle events of this type, in apply order. */
export const projectionsOf = (type: EventType): ReadonlyArray<AnyProjection> => byType.get(type) ?? none
