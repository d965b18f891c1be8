import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { foldName, keysOf } from "../names.ts";

export default defineRule({
  code: "trait/unknown-resource",
  severity: "error",
  description: "A trait's `resources[].resource` is not a key of `resourceSettings`.",
  why: "A trait's resource modifier raises or lowers a defined pool, matched ignoring case and surrounding spaces (docs/engine.md). A name that matches no pool has no effect, so the trait silently does less than its description promises.",
  messages: {
    unknown:
      'Resource "{resource}" of trait "{trait}" is not a key of resourceSettings, so this modifier has no effect.{suggestion} Use a resource key, or define the resource in resourceSettings.',
  },
  examples: {
    bad: { traits: { Brave: { resources: [{ resource: "stamina", modifier: 5 }] } } },
    good: { traits: { Brave: { resources: [{ resource: "Health", modifier: 5 }] } } },
  },
  check({ world, raw, report }) {
    // Compare with every key as written, so a pool with its own shape problem is not "unknown" too.
    const keys = keysOf(raw, "resourceSettings");
    if (!keys) return;
    const known = new Set([...keys].map(foldName));
    for (const [key, trait] of Object.entries(world.traits)) {
      trait.resources.forEach(({ resource }, i) => {
        if (resource.trim() === "" || known.has(foldName(resource))) return;
        report({
          path: ["traits", key, "resources", i, "resource"],
          messageId: "unknown",
          data: { resource, trait: key, suggestion: didYouMean(resource, keys) },
        });
      });
    }
  },
});
