import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./regex-pattern.ts";

const regex = (value: unknown, type = "story-text") => ({
  triggers: { start_sheep: { conditions: [{ type, operator: "regex", value }] } },
});
const at = ["triggers", "start_sheep", "conditions", 0, "value"];

testRule(rule, {
  valid: [
    regex("sheep"),
    regex("/^the (lost )?sheep$/i"),
    regex("^(a+)+$"),
    regex("[\\u00e9]\\p{L}+", "read-string"),
    regex(42),
    {
      triggers: { start_sheep: { conditions: [{ type: "story-text", operator: "contains", value: "(?=" }] } },
    },
  ],
  invalid: [
    { patch: regex("(["), errors: [{ path: at, messageId: "invalid" }] },
    { patch: regex("sheep(?! dog)"), errors: [{ path: at, messageId: "unsupported" }] },
    { patch: regex("(?<=the )sheep"), errors: [{ path: at, messageId: "unsupported" }] },
    { patch: regex("(baa)\\1"), errors: [{ path: at, messageId: "unsupported" }] },
    { patch: regex("a{1000}{1000}"), errors: [{ path: at, messageId: "invalid" }] },
  ],
});
