import { defineRule } from "../../rule.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

/** Every name-keyed map of the format (spec 2: "byte-identical to the inner name"). */
export const NAME_KEYED_SECTIONS = [
  "triggers",
  "traits",
  "regions",
  "quests",
  "npcs",
  "items",
  "locations",
  "factions",
  "realms",
  "skills",
  "abilities",
  "npcTypes",
  "storyStarts",
  "traitCategories",
  "gameModes",
  "resourceSettings",
] as const;

export default defineRule({
  code: "keys/name-mismatch",
  severity: "error",
  description: "The key of a record in a name-keyed map differs from the record's `name`.",
  why: "The engine looks records up by key and shows them by name. A key that differs from the name, even by case or a trailing space, makes references silently miss: a `quest-init` with the shown name finds nothing.",
  messages: {
    mismatch:
      "Key {key} differs from its name {name} in {section}. Make them byte-identical (same case and spaces): rename the key or the name.",
  },
  examples: {
    bad: { realms: { Vale: { name: "The Vale" } } },
    good: { realms: { Vale: { name: "Vale" } } },
  },
  check({ raw, report }) {
    for (const section of NAME_KEYED_SECTIONS) {
      for (let row = 0, rows = entriesOf(raw[section]); row < rows.length; row++) {
        const key = rows[row]![0];
        const record = rows[row]![1];
        if (!isPlainObject(record) || typeof record.name !== "string" || record.name === key) continue;
        report({
          path: [section, key, "name"],
          messageId: "mismatch",
          data: { key: JSON.stringify(key), name: JSON.stringify(record.name), section },
          related: [{ path: [section, key], message: "the key is here" }],
        });
      }
    }
  },
});
