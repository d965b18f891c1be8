import { defineRule } from "../../rule.ts";
import { inspectScript } from "../../script/inspect.ts";
import { didYouMean } from "../../suggest.ts";
import { entriesOf, isPlainObject } from "../../values.ts";
import { areasByLocation, ENTITY_SECTIONS, entityNames, keysOf } from "../names.ts";

/** Effect types whose literal field names a record, the field, and what kind of record. */
const NAMED_FIELDS: Record<string, { field: string; kind: string }[]> = {
  "quest-init": [{ field: "value", kind: "quest" }],
  "quest-progress": [{ field: "questId", kind: "quest" }],
  "quest-complete": [{ field: "questId", kind: "quest" }],
  "quest-next-step-clear": [{ field: "questId", kind: "quest" }],
  "quest-next-step-set": [{ field: "questId", kind: "quest" }],
  "quest-objective-reveal": [{ field: "questId", kind: "quest" }],
  "quest-objective-complete": [{ field: "questId", kind: "quest" }],
  "narrative-event-start": [{ field: "eventId", kind: "narrative event" }],
  "party-realm": [{ field: "value", kind: "realm" }],
  "party-region": [{ field: "value", kind: "region" }],
  "party-location": [{ field: "value", kind: "location" }],
  "party-area": [{ field: "value", kind: "area" }],
  "player-traits": [{ field: "value", kind: "trait" }],
  "known-entity": [{ field: "entity", kind: "realm, region, location, faction or NPC" }],
};

export default defineRule({
  code: "script/unknown-name",
  severity: "warning",
  description:
    "A trigger's `script` pushes an effect whose literal name (a quest, narrative event, realm, region, location, area, trait, or known entity) is not defined in the world.",
  why: 'The engine looks these names up when the effect applies, and an unknown one does nothing: the trace says "no quest" at run time, but only when the script runs, which may be late in a game. Only effect object literals are read (`effects.push({ type: "quest-init", operator: "set", value: "Burn the Old Mill" })`, and the effects of triggers a script adds); a name built at run time is not seen. A warning: the world plays, the effect is skipped.',
  messages: {
    unknown:
      "Script of trigger {trigger} applies a {type} effect at line {line}, column {column} of the script naming {kind} {name}, which the world does not define.{suggestion} Use the exact key, or add the {kind}.",
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: {
          script: 'effects.push({ type: "quest-init", operator: "set", value: "Lost sheep" });',
        },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          script: 'effects.push({ type: "quest-init", operator: "set", value: "Lost Sheep" });',
        },
      },
    },
  },
  check({ raw, report }) {
    // Built for the first effect that names something: most scripts push none (a world at the
    // caps has some two thousand entity and area names to collect).
    let names: Map<string, ReadonlySet<string>> | undefined;
    for (let row = 0, rows = entriesOf(raw.triggers); row < rows.length; row++) {
      const key = rows[row]![0];
      const trigger = rows[row]![1];
      if (!isPlainObject(trigger) || typeof trigger.script !== "string") continue;
      const script = inspectScript(trigger.script);
      if (!script.ok) continue;
      for (const effect of script.analysis.effects.literals) {
        for (const { field, kind } of NAMED_FIELDS[effect.type] ?? []) {
          names ??= namesByKind(raw);
          const known = names.get(kind);
          const value = effect.fields[field];
          const named = Array.isArray(value) ? value : [value];
          for (const name of named) {
            if (typeof name !== "string" || !known || known.has(name)) continue;
            report({
              path: ["triggers", key, "script"],
              messageId: "unknown",
              data: {
                trigger: JSON.stringify(key),
                type: effect.type,
                line: effect.at.line,
                column: effect.at.column,
                kind,
                name: JSON.stringify(name),
                suggestion: didYouMean(name, known),
              },
            });
          }
        }
      }
    }
  },
});

/** The defined names of each kind; a kind whose section is not an object is left out (shape reports it). */
function namesByKind(raw: Readonly<Record<string, unknown>>): Map<string, ReadonlySet<string>> {
  const out = new Map<string, ReadonlySet<string>>();
  const add = (kind: string, names: ReadonlySet<string> | undefined) => {
    if (names) out.set(kind, names);
  };
  add("quest", keysOf(raw, "quests"));
  add("narrative event", keysOf(raw, "narrativeEvents") ?? new Set());
  add("realm", keysOf(raw, "realms"));
  add("region", keysOf(raw, "regions"));
  add("location", keysOf(raw, "locations"));
  add("trait", keysOf(raw, "traits"));
  const areas = new Set<string>();
  for (const byName of areasByLocation(raw).values()) for (const area of byName.keys()) areas.add(area);
  add("area", areas);
  if (ENTITY_SECTIONS.some((s) => keysOf(raw, s)))
    add("realm, region, location, faction or NPC", entityNames(raw));
  return out;
}
