import { isEffectType } from "../../check-plans.ts";
import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { effectSpec } from "../effect-spec.ts";
import { rawEffects } from "../triggers.ts";

export default defineRule({
  code: "effect/operator-not-allowed",
  severity: "error",
  description: "An effect's `operator` is not one its type accepts.",
  why: "Each effect type takes its own operators (docs/format.md, triggers): moves and `quest-init` only `set`, numbers `add`/`subtract`/`multiply`/`divide`/`set`, flags `set`/`toggle`, lists `set`/`add`/`remove`. The engine silently drops an effect with any other operator at run time, so at publish time it is an error.",
  messages: {
    operator:
      'Operator "{operator}" is not allowed for "{type}" effects, so this effect would be dropped at run time.{suggestion} Use one of: {allowed}.',
  },
  examples: {
    bad: {
      triggers: { start_sheep: { effects: [{ type: "quest-init", operator: "add", value: "Lost Sheep" }] } },
    },
    good: {
      triggers: { start_sheep: { effects: [{ type: "quest-init", operator: "set", value: "Lost Sheep" }] } },
    },
  },
  check({ raw, report }) {
    for (let row = 0, rows = rawEffects(raw); row < rows.length; row++) {
      const { path, effect } = rows[row]!;
      const { type, operator } = effect;
      if (!isEffectType(type) || typeof operator !== "string") continue;
      const allowed = effectSpec(type).operators;
      // Types without operators get an unknown-field warning from the shape step instead.
      if (allowed.length === 0 || allowed.includes(operator)) continue;
      report({
        path: [...path, "operator"],
        messageId: "operator",
        data: { operator, type, allowed: allowed.join(", "), suggestion: didYouMean(operator, allowed) },
      });
    }
  },
});
