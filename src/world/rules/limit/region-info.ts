import { defineRule } from "../../rule.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

export const MAX_REGION_INFO = 4000;

const INFO_FIELDS = ["basicInfo", "hiddenInfo"] as const;

export default defineRule({
  code: "limit/region-info",
  severity: "error",
  description: `A region's \`basicInfo\` or \`hiddenInfo\` is longer than ${MAX_REGION_INFO} characters.`,
  why: `Region texts are capped at ${MAX_REGION_INFO} raw characters each (docs/format.md, regions, 8). Raw characters are counted as JavaScript string length (UTF-16 code units): an emoji counts 2. \`hiddenInfo\` has no runtime function for regions, so it can usually be left out.`,
  messages: {
    basicInfo: `The basicInfo of region {name} is {length} characters; the limit is ${MAX_REGION_INFO}. Keep it to terrain, climate, landmarks and inhabitants; move details to locations or worldLore.`,
    hiddenInfo: `The hiddenInfo of region {name} is {length} characters; the limit is ${MAX_REGION_INFO}. hiddenInfo has no runtime function for regions: shorten it or remove it.`,
  },
  examples: {
    bad: { regions: { Northfield: { basicInfo: "f".repeat(MAX_REGION_INFO + 1) } } },
    good: { regions: { Northfield: { basicInfo: "f".repeat(MAX_REGION_INFO) } } },
  },
  check({ raw, report }) {
    for (let row = 0, rows = entriesOf(raw.regions); row < rows.length; row++) {
      const key = rows[row]![0];
      const region = rows[row]![1];
      if (!isPlainObject(region)) continue;
      for (const field of INFO_FIELDS) {
        const text = region[field];
        if (typeof text !== "string" || text.length <= MAX_REGION_INFO) continue;
        report({
          path: ["regions", key, field],
          messageId: field,
          data: { name: JSON.stringify(key), length: text.length },
        });
      }
    }
  },
});
