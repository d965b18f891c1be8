import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { isPlainObject } from "../../values.ts";
import { rawConditions, rawEffects } from "../triggers.ts";

export default defineRule({
  code: "reference/unknown-event",
  severity: "error",
  description:
    "A `narrative-event-start` effect or `narrative-event-status` condition names an `eventId` that is not a key of `narrativeEvents`.",
  why: "Narrative events are found by their key in the top-level `narrativeEvents` map (docs/engine.md). An unknown key starts nothing, and a status condition on it never sees the event move.",
  messages: {
    unknown:
      'No narrative event has the key {event}.{suggestion} Use a key of "narrativeEvents", or add the event there.',
    noEvents:
      'The world defines no "narrativeEvents", so event {event} does not exist. Add "narrativeEvents" with this key ({ "title", "beats" }).',
  },
  examples: {
    bad: { triggers: { start_sheep: { effects: [{ type: "narrative-event-start", eventId: "storm" }] } } },
    good: {
      narrativeEvents: { storm: { title: "Storm", beats: "The river rises." } },
      triggers: { start_sheep: { effects: [{ type: "narrative-event-start", eventId: "storm" }] } },
    },
  },
  check({ raw, report }) {
    const events = raw.narrativeEvents;
    // The section is optional: absent means no events; any other non-object is a shape error.
    if (events !== undefined && !isPlainObject(events)) return;
    const keys = events ? Object.keys(events) : [];
    const check = (eventId: unknown, path: JsonPath) => {
      if (typeof eventId !== "string" || (events && Object.hasOwn(events, eventId))) return;
      const event = JSON.stringify(eventId);
      if (keys.length === 0) report({ path, messageId: "noEvents", data: { event } });
      else report({ path, messageId: "unknown", data: { event, suggestion: didYouMean(eventId, keys) } });
    };
    for (let row = 0, rows = rawConditions(raw); row < rows.length; row++) {
      const { path, condition } = rows[row]!;
      if (condition.type === "narrative-event-status") check(condition.eventId, [...path, "eventId"]);
    }
    for (let row1 = 0, rows1 = rawEffects(raw); row1 < rows1.length; row1++) {
      const { path, effect } = rows1[row1]!;
      if (effect.type === "narrative-event-start") check(effect.eventId, [...path, "eventId"]);
    }
  },
});
