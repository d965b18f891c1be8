import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { foldName, keysOf } from "../names.ts";
import { rawConditions, rawEffects } from "../triggers.ts";

export default defineRule({
  code: "reference/unknown-resource",
  severity: "error",
  description:
    "A `player-resource` condition or effect names a `resource` that is not a key of `resourceSettings`.",
  why: "Resource keys match trimmed and case-insensitively (docs/engine.md), but a name that matches no key reads no pool: the condition never holds and the effect changes nothing.",
  messages: {
    unknown:
      "Resource {resource} is not defined in resourceSettings.{suggestion} Use a resourceSettings key (case does not matter), or define the resource.",
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: { effects: [{ type: "player-resource", resource: "hp", operator: "add", value: 5 }] },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          effects: [{ type: "player-resource", resource: "Health", operator: "add", value: 5 }],
        },
      },
    },
  },
  check({ raw, report }) {
    const keys = keysOf(raw, "resourceSettings");
    if (!keys) return;
    const folded = new Set([...keys].map(foldName));
    const check = (resource: unknown, path: JsonPath) => {
      if (typeof resource !== "string" || folded.has(foldName(resource))) return;
      report({
        path,
        messageId: "unknown",
        data: { resource: JSON.stringify(resource), suggestion: didYouMean(resource.trim(), keys) },
      });
    };
    for (let row = 0, rows = rawConditions(raw); row < rows.length; row++) {
      const { path, condition } = rows[row]!;
      if (condition.type === "player-resource") check(condition.resource, [...path, "resource"]);
    }
    for (let row1 = 0, rows1 = rawEffects(raw); row1 < rows1.length; row1++) {
      const { path, effect } = rows1[row1]!;
      if (effect.type === "player-resource") check(effect.resource, [...path, "resource"]);
    }
  },
});
