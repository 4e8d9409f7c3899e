/**
 * A provider's free-form window, as reminders meet it: WhatsApp lets a business send a user
 * free-form messages only within 24 hours of the user's last message to it; past that, only an
 * approved template (`freeFormWindowOf`, from the provider table). A reminder due outside the
 * window goes out as the configured template, or, with none, is held until the user writes again.
 */
import type { Provider } from "../Ids.js"
import { freeFormWindowOf } from "../Inbound/Providers.js"

/** How a due reminder goes out now: as a message, as the template, or not until the user writes. */
export type Route = "message" | "template" | "hold"

/** Whether a reminder's route depends on when its user last wrote (its provider has a window). */
export const hasWindow = (provider: Provider): boolean => freeFormWindowOf(provider) !== null

export const routeOf = (provider: Provider, lastHeardFrom: number | null, now: number, hasTemplate: boolean): Route => {
  const window = freeFormWindowOf(provider)
  if (window === null) return "message"
  if (lastHeardFrom !== null && now - lastHeardFrom < window) return "message"
  return hasTemplate ? "template" : "hold"
}
