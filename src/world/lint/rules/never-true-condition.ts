import type { JsonPath } from "../../diagnostic.ts";
import { defineRule, type Report } from "../../rule.ts";
import { PLACE_KINDS } from "../../rules/names.ts";
import { analyse, describeCondition, WRITE_TYPES, type WriteSite, writeSitesByKey } from "../analysis.ts";
import { FALLBACK_TEXT, READ_KINDS, type Scalar, type StorageKind } from "../facts.ts";
import type { Condition } from "../model.ts";
import type { Reachability } from "../reachability.ts";

type MessageId = "tick" | "place" | "questStatus" | "questCompleted" | "eventStatus" | "storageValue";

const MAX_VALUES = 6;
const MAX_RELATED = 3;

export default defineRule<MessageId>({
  code: "lint/never-true-condition",
  severity: "warning",
  description: "A trigger condition can never hold in play, so its trigger never fires.",
  why: "All of a trigger's conditions must pass for it to fire (docs/engine.md). The analysis follows what can happen from a new game to a fixpoint and finds conditions no state of play can meet: a `game-tick` value the turn counter never takes (it counts whole turns from 0); a `party-*` test that no place of the world passes (`contains`, `regex`, `notEquals`); a `quest-status` the quest can never reach (it is never made available, or never completed); `quests-completed contains` a quest that is never completed; a `narrative-event-status` other than `inactive` for an event that is never started; a `read-*` value that no write that can happen stores (the key is written, but never with that value, or only by triggers that can never fire). A script the analysis cannot follow counts as able to do anything, so nothing it could cause is reported. Not repeated here: names that do not exist (`reference/*`, reported by `taleforge check`) and keys never written at all (`lint/storage-never-written`).",
  messages: {
    tick: "This condition ({condition}) can never hold: game-tick counts whole turns from 0 up. Change the value or the operator.",
    place:
      "This condition ({condition}) can never hold: the party's {kind} is always one of the world's {kind}s (or none), and no such name meets it. Fix the value (names compare exactly; contains ignores case).",
    questStatus: "This condition ({condition}) can never hold: quest {quest} can only be {statuses}. {hint}",
    questCompleted: "This condition ({condition}) can never hold: quest {quest} is never completed. {hint}",
    eventStatus:
      'This condition ({condition}) can never hold: narrative event {event} is never started, so it stays "inactive". Start it with a narrative-event-start effect in a trigger that can fire.',
    storageValue:
      "This condition ({condition}) can never hold: read as {kind}, storage key {key} can only be {values}. Write the value it tests for, or test for a value the key can hold.",
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: {
          conditions: [{ type: "game-tick", operator: "lessThan", value: 0 }],
        },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          conditions: [{ type: "game-tick", operator: "greaterThan", value: 0 }],
        },
      },
    },
  },
  check({ raw, report }) {
    const analysis = analyse(raw);
    for (const verdict of analysis.verdicts.values()) {
      for (const condition of verdict.impossible) {
        const found = explain(condition, analysis);
        if (found) report(found);
      }
    }
  },
});

/** The report for a condition that can never hold, or null when another rule reports it. */
function explain(condition: Condition, analysis: Reachability): Report<MessageId> | null {
  const { model, evaluator, everything } = analysis;
  const path: JsonPath = [...condition.path, "value"];
  const described = describeCondition(condition);
  const { type, ref } = condition;
  switch (type) {
    case "game-tick":
      return { path, messageId: "tick", data: { condition: described } };
    case "party-location":
    case "party-area":
    case "party-region":
    case "party-realm": {
      const names = model.places[type];
      // An unknown name with equals is reference/unknown-destination's.
      if (!names || (condition.operator === "equals" && !names.has(condition.value as string))) return null;
      return {
        path,
        messageId: "place",
        data: { condition: described, kind: PLACE_KINDS[type] },
      };
    }
    case "quest-status": {
      if (!model.quests.has(ref)) return null;
      const statuses = [...evaluator.questStatuses(ref)];
      return {
        path,
        messageId: "questStatus",
        data: {
          condition: described,
          quest: JSON.stringify(ref),
          statuses: statuses.map((s) => JSON.stringify(s)).join(", "),
          hint: questHint(ref, analysis),
        },
      };
    }
    case "quests-completed":
      if (!model.quests.has(ref)) return null;
      return {
        path,
        messageId: "questCompleted",
        data: { condition: described, quest: JSON.stringify(ref), hint: questHint(ref, analysis) },
      };
    case "narrative-event-status":
      if (!model.events.has(ref)) return null;
      return { path, messageId: "eventStatus", data: { condition: described, event: JSON.stringify(ref) } };
    case "read-number":
    case "read-string":
    case "read-boolean":
    case "read-array": {
      const kind = READ_KINDS[type]!;
      // A key never written as this kind is lint/storage-never-written's.
      if (!everything.written(ref, kind)) return null;
      return {
        path,
        messageId: "storageValue",
        data: {
          condition: described,
          kind: kind === "array" ? "an array" : `a ${kind}`,
          key: JSON.stringify(ref),
          values: possibleValues(ref, kind, analysis),
        },
        related: writeSites(ref, analysis),
      };
    }
    default:
      return null;
  }
}

function questHint(quest: string, analysis: Reachability): string {
  if (!analysis.evaluator.availablePossible(quest))
    return "Nothing that can fire makes it available: give it a quest-init in a trigger that can fire.";
  return "Nothing that can fire completes it: add a quest-complete effect (or a quest-progress while it is accepted) to a trigger that can fire.";
}

function possibleValues(key: string, kind: StorageKind, analysis: Reachability): string {
  const writes = analysis.facts.readable(key);
  if (kind === "array") {
    const elements = writes.elements.list();
    return elements.length === 0
      ? "[] or arrays of nothing it tests for"
      : `arrays of ${list(elements)} (or [])`;
  }
  const fallback = FALLBACK_TEXT[kind];
  return `${fallback} (unwritten)${writes[kind].size > 0 ? ` or ${list(writes[kind].list())}` : ""}`;
}

function list(values: Scalar[]): string {
  const shown = values.slice(0, MAX_VALUES).map((v) => JSON.stringify(v));
  return values.length > MAX_VALUES ? `${shown.join(", ")}…` : shown.join(", ");
}

/** Where the key is written: effects by write type (number, string, boolean, array), then script assignments. */
function writeSites(key: string, analysis: Reachability): { path: JsonPath; message: string }[] {
  const rank = (site: WriteSite) =>
    site.type === undefined ? WRITE_TYPES.length : WRITE_TYPES.indexOf(site.type);
  // A stable sort: within a rank, the sites stay in model order.
  return [...(writeSitesByKey(analysis.model).get(key) ?? [])]
    .sort((a, b) => rank(a) - rank(b))
    .slice(0, MAX_RELATED)
    .map((site) => ({ path: site.path, message: `the key is written here (${site.where})` }));
}
