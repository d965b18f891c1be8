import { isEffectType } from "../../check-plans.ts";
import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { effectSpec } from "../effect-spec.ts";
import { rawEffects } from "../triggers.ts";

export default defineRule({
  code: "effect/field-value",
  severity: "error",
  description:
    "An effect field with a fixed set of values (`source` of the next-step effects, `target` of `player-resource` and `player-traits`) holds another value.",
  why: 'These fields take one of a few words (docs/format.md, triggers): `source` is "objective" or "narrative-event", `target` is "allPlayers" or "satisfyingPlayers". The engine silently drops an effect with any other value at run time, so at publish time it is an error.',
  messages: {
    value:
      'Field "{field}" of this "{type}" effect is "{value}", so the effect would be dropped at run time.{suggestion} Use one of: {allowed}.',
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: { effects: [{ type: "party-next-step-set", text: "Find the sheep.", source: "quest" }] },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          effects: [{ type: "party-next-step-set", text: "Find the sheep.", source: "objective" }],
        },
      },
    },
  },
  check({ raw, report }) {
    for (let row = 0, rows = rawEffects(raw); row < rows.length; row++) {
      const { path, effect } = rows[row]!;
      const type = effect.type;
      if (!isEffectType(type)) continue;
      // By index: for...of runs the iterator protocol in the interpreter, once per effect.
      const fields = effectSpec(type).fields;
      for (let f = 0; f < fields.length; f++) {
        const { name, options } = fields[f]!;
        const value = effect[name];
        // Missing and non-string values are effect/missing-field's to report.
        if (!options || typeof value !== "string" || options.includes(value)) continue;
        report({
          path: [...path, name],
          messageId: "value",
          data: {
            field: name,
            type,
            value,
            allowed: options.map((o) => JSON.stringify(o)).join(", "),
            suggestion: didYouMean(value, options),
          },
        });
      }
    }
  },
});
