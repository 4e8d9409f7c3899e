/** Apply recorded events to the read models once more, as the projector reads them: in their stored form. */
import { toStored } from "@verbatim/projections/EventCodec"
import type { RecordedEvent } from "@verbatim/projections/EventStore"
import { apply } from "@verbatim/projections/Projections/Projector"

export const reapply = (recorded: ReadonlyArray<RecordedEvent>) =>
  apply(recorded.map(({ event, position }) => ({ event: toStored(event), position })))
