import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { elementsOf, entriesOf, valueAt } from "../../values.ts";
import { foldName } from "../names.ts";

export default defineRule({
  code: "settings/name-collision",
  severity: "error",
  description:
    "Two resource keys, or two attribute names, are the same once trimmed and lowercased (docs/engine.md).",
  why: "The engine matches attribute names and resource keys ignoring case and surrounding spaces. Two entries that differ only in case or spaces become one at run time, so one of them silently shadows the other and modifiers land on the wrong pool or attribute.",
  messages: {
    resource:
      'Resource key "{name}" is the same as "{other}" at run time (resource keys match ignoring case and surrounding spaces). Rename one of them or merge the two resources.',
    attribute:
      'Attribute name "{name}" is the same as "{other}" at run time (attribute names match ignoring case and surrounding spaces). Remove the duplicate or rename it.',
  },
  examples: {
    bad: { attributeSettings: { attributeNames: ["strength", "wits", "Strength "] } },
    good: { attributeSettings: { attributeNames: ["strength", "wits", "stamina"] } },
  },
  check({ raw, report }) {
    // Read as written: a shape problem elsewhere in a record must not hide a collision.
    const resources = entriesOf(raw.resourceSettings).map(([key]) => ({
      name: key,
      path: ["resourceSettings", key] as JsonPath,
    }));
    for (const { name, path, first } of collisions(resources)) {
      report({
        path,
        atKey: true,
        messageId: "resource",
        data: { name, other: first.name },
        related: [{ path: first.path, message: `"${first.name}" is defined here` }],
      });
    }
    const names = elementsOf(valueAt(raw, ["attributeSettings", "attributeNames"])).flatMap((name, i) =>
      typeof name === "string"
        ? [{ name, path: ["attributeSettings", "attributeNames", i] as JsonPath }]
        : [],
    );
    for (const { name, path, first } of collisions(names)) {
      report({
        path,
        messageId: "attribute",
        data: { name, other: first.name },
        related: [{ path: first.path, message: `"${first.name}" is listed here` }],
      });
    }
  },
});

interface Named {
  name: string;
  path: JsonPath;
}

/** Every entry whose runtime name an earlier entry already has, paired with that earlier entry. */
function collisions(entries: Named[]): (Named & { first: Named })[] {
  const seen = new Map<string, Named>();
  const found: (Named & { first: Named })[] = [];
  for (const entry of entries) {
    const first = seen.get(foldName(entry.name));
    if (first) found.push({ ...entry, first });
    else seen.set(foldName(entry.name), entry);
  }
  return found;
}
