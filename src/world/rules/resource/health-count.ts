import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

export default defineRule({
  code: "resource/health-count",
  severity: "error",
  description: 'Exactly one resource in `resourceSettings` must have `"isHealth": true`.',
  why: "The engine needs to know which pool is the character's health: damage, healing and death all act on it. With none marked it has no health pool; with several it cannot tell which one a hit lowers.",
  messages: {
    none: 'No resource has "isHealth": true. Mark the health pool: set "isHealth": true on exactly one resource in resourceSettings (usually "health").',
    several:
      'Resources {names} are all marked "isHealth": true, but only one can be the health pool. Keep it on one and remove it (or set it false) on the others.',
  },
  examples: {
    bad: { resourceSettings: { health: { isHealth: false } } },
    good: { resourceSettings: { health: { isHealth: true } } },
  },
  check({ raw, report }) {
    // Read as written: a health pool with a shape problem elsewhere is still the one marked.
    if (!isPlainObject(raw.resourceSettings)) return;
    const marked = entriesOf(raw.resourceSettings).flatMap(([key, resource]) =>
      isPlainObject(resource) && resource.isHealth === true
        ? [{ key, path: ["resourceSettings", key, "isHealth"] as JsonPath }]
        : [],
    );
    if (marked.length === 0) {
      report({ path: ["resourceSettings"], atKey: true, messageId: "none" });
      return;
    }
    const [first, second] = marked;
    if (!first || !second) return;
    report({
      path: second.path,
      messageId: "several",
      data: { names: marked.map(({ key }) => `"${key}"`).join(", ") },
      related: marked
        .filter((entry) => entry !== second)
        .map(({ key, path }) => ({ path, message: `"${key}" is also marked as health` })),
    });
  },
});
