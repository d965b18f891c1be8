import { defineRule } from "../../rule.ts";

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

export default defineRule({
  code: "resource/color-format",
  severity: "warning",
  description: "A resource's `color` is not a `#RRGGBB` hex colour.",
  why: "The colour draws the resource's bar in a player's interface. Interfaces read it as a six-digit hex colour; a name (`red`), a short form (`#c33`) or a typo shows no bar colour, or a wrong one, and nothing says why.",
  messages: {
    format:
      'Resource {resource} has color {color}, which is not a #RRGGBB hex colour. Write it as # followed by six hex digits, e.g. "#cc3333".',
  },
  examples: {
    bad: { resourceSettings: { health: { color: "red" } } },
    good: { resourceSettings: { health: { color: "#cc3333" } } },
  },
  check({ world, report }) {
    for (const [key, resource] of Object.entries(world.resourceSettings)) {
      if (HEX_COLOR.test(resource.color)) continue;
      report({
        path: ["resourceSettings", key, "color"],
        messageId: "format",
        data: { resource: JSON.stringify(key), color: JSON.stringify(resource.color) },
      });
    }
  },
});
