import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { elementsOf, isPlainObject } from "../../values.ts";
import { foldName, keysOf } from "../names.ts";

interface Target {
  kind: string;
  where: string;
  names: string[];
  /** The names as compared: resource keys and attribute names trimmed and lowercased (resolutions, Names and case). */
  known: Set<string>;
  fold: boolean;
}

function target(kind: string, where: string, names: string[], fold: boolean): Target {
  return { kind, where, names, fold, known: new Set(fold ? names.map(foldName) : names) };
}

export default defineRule({
  code: "item/unknown-bonus-variable",
  severity: "error",
  description:
    "An item bonus of type `resource`, `attribute` or `skill` names a `variable` that the world does not define.",
  why: "An item bonus raises a resource, an attribute or a skill by name. A name that matches none is ignored by the engine, so the item silently gives less than its description promises. A warning, as for trait attributes (docs/format.md, traits): the world still runs. `stat` bonuses are free-form and not checked.",
  messages: {
    unknown:
      "Item {item} has a {kind} bonus on {variable}, which is not a defined {kind}, so it has no effect.{suggestion} Use {where}.",
  },
  examples: {
    bad: { items: { Rope: { bonuses: [{ type: "skill", variable: "climb", value: 1 }] } } },
    good: { items: { Rope: { bonuses: [{ type: "skill", variable: "climbing", value: 1 }] } } },
  },
  check({ world, raw, report }) {
    const targets = bonusTargets(raw);
    for (const [key, item] of Object.entries(world.items)) {
      item.bonuses.forEach((bonus, index) => {
        const to = targets.get(bonus.type);
        if (!to || bonus.variable.trim() === "") return;
        if (to.known.has(to.fold ? foldName(bonus.variable) : bonus.variable)) return;
        report({
          path: ["items", key, "bonuses", index, "variable"],
          messageId: "unknown",
          data: {
            item: JSON.stringify(key),
            kind: to.kind,
            variable: JSON.stringify(bonus.variable),
            suggestion: didYouMean(bonus.variable.trim(), to.names),
            where: to.where,
          },
        });
      });
    }
  },
});

/** Bonus type -> what it may name; a type is left out when its section is not readable (shape reports that). */
function bonusTargets(raw: Readonly<Record<string, unknown>>): Map<string, Target> {
  const out = new Map<string, Target>();
  const resources = keysOf(raw, "resourceSettings");
  if (resources) {
    const where = 'a key of "resourceSettings" (case does not matter)';
    out.set("resource", target("resource", where, [...resources], true));
  }
  const settings = raw.attributeSettings;
  if (isPlainObject(settings) && Array.isArray(settings.attributeNames)) {
    const names = elementsOf(settings.attributeNames).filter((n): n is string => typeof n === "string");
    const where = "a name in attributeSettings.attributeNames (case does not matter)";
    out.set("attribute", target("attribute", where, names, true));
  }
  const skills = keysOf(raw, "skills");
  if (skills) out.set("skill", target("skill", 'a key of "skills"', [...skills], false));
  return out;
}
