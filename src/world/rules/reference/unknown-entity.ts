import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { ENTITY_KINDS, entityNames } from "../names.ts";
import { rawConditions, rawEffects } from "../triggers.ts";

export default defineRule({
  code: "reference/unknown-entity",
  severity: "error",
  description: `A \`known-entity\` condition or effect names an \`entity\` that is not ${ENTITY_KINDS}.`,
  why: "Only realms, regions, locations, factions and NPCs carry a known/unknown state. An entity name that matches none of them marks nothing known, and a condition on it never changes.",
  messages: {
    unknown: `Entity {entity} is not the name of ${ENTITY_KINDS}.{suggestion} Use the exact name (map key) of one of those records.`,
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: { effects: [{ type: "known-entity", entity: "Ada", operator: "set", value: true }] },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          effects: [{ type: "known-entity", entity: "Ada Reed", operator: "set", value: true }],
        },
      },
    },
  },
  check({ raw, report }) {
    const names = entityNames(raw);
    const check = (entity: unknown, path: JsonPath) => {
      if (typeof entity !== "string" || names.has(entity)) return;
      report({
        path,
        messageId: "unknown",
        data: { entity: JSON.stringify(entity), suggestion: didYouMean(entity, names) },
      });
    };
    for (let row = 0, rows = rawConditions(raw); row < rows.length; row++) {
      const { path, condition } = rows[row]!;
      if (condition.type === "known-entity") check(condition.entity, [...path, "entity"]);
    }
    for (let row1 = 0, rows1 = rawEffects(raw); row1 < rows1.length; row1++) {
      const { path, effect } = rows1[row1]!;
      if (effect.type === "known-entity") check(effect.entity, [...path, "entity"]);
    }
  },
});
