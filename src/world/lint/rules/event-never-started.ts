import { defineRule } from "../../rule.ts";
import { analyse, effectSites, neverApplies } from "../analysis.ts";

const STORM = {
  title: "Storm",
  beats: "A storm breaks over the marsh; the sheep huddle on the Fen Hut's porch.",
  targetTurns: 2,
};

export default defineRule({
  code: "lint/event-never-started",
  severity: "warning",
  description: "A narrative event is never started, or every effect that starts it can never apply.",
  why: "A narrative event does nothing until a `narrative-event-start` effect makes it active (docs/engine.md): its beats never reach the narrator and its `onCompleteEffects` never apply. Either no trigger, event or script starts it at all, or every start is in a trigger that can never fire (the analysis follows what can happen from a new game; a script it cannot follow counts as able to start any event).",
  messages: {
    noStart:
      'Narrative event {event} is never started: no narrative-event-start effect names it, so its beats never reach the narrator and its onCompleteEffects never apply. Add {"type": "narrative-event-start", "eventId": {event}} to the effects of the trigger that should start it.',
    unreachable:
      "Narrative event {event} can never start: no narrative-event-start that names it can ever apply ({first}). Fix the conditions of the trigger that should start it.",
  },
  examples: {
    bad: {
      narrativeEvents: { Storm: STORM },
    },
    good: {
      narrativeEvents: { Storm: STORM },
      triggers: {
        storm_breaks: {
          name: "storm_breaks",
          conditions: [{ type: "party-location", operator: "equals", value: "Fen Hut" }],
          effects: [{ type: "narrative-event-start", eventId: "Storm" }],
        },
      },
    },
  },
  check({ raw, report }) {
    const analysis = analyse(raw);
    if (analysis.facts.startedAll) return;
    const starts = effectSites(analysis, "narrative-event-start");
    for (const event of analysis.model.events) {
      if (analysis.evaluator.startedPossible(event)) continue;
      const path = ["narrativeEvents", event];
      const data = { event: JSON.stringify(event) };
      const never = neverApplies(analysis, starts, "eventId", event, (site) =>
        site.index === undefined ? `the start in ${site.where}` : "this start",
      );
      if (!never) {
        // A start with an event name computed at run time may name it; it cannot fire either, but say nothing unsure.
        if (!analysis.everything.startedAll) report({ path, atKey: true, messageId: "noStart", data });
        continue;
      }
      report({
        path,
        atKey: true,
        messageId: "unreachable",
        data: { ...data, first: never.first },
        related: never.related,
      });
    }
  },
});
