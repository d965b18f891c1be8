import { escapeSlack, prettyJsonLength, prettyJsonWithin } from "../../json-length.ts";
import { defineRule } from "../../rule.ts";

export const MAX_REGIONS_SECTION = 500_000;

/** `count` regions of about 3,990 pretty-printed characters each (within limit/region-info), for the examples. */
function regions(count: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 1; i <= count; i++) {
    const name = `Reach ${i}`;
    out[name] = { name, basicInfo: "g".repeat(3900), x: i, y: 0, realm: "Vale" };
  }
  return out;
}

export default defineRule({
  code: "limit/regions-section",
  severity: "error",
  description: `The \`regions\` section is more than ${MAX_REGIONS_SECTION} characters of pretty-printed JSON.`,
  why: `The whole \`regions\` section is capped at ${MAX_REGIONS_SECTION} characters of pretty-printed JSON (docs/rules.md, limit/), measured as \`JSON.stringify(regions, null, 2).length\`: JavaScript string length (UTF-16 code units), 2-space indentation starting at the section itself. Regions are summaries; the detail belongs in locations and world lore.`,
  messages: {
    size: `The regions section is {size} characters of pretty-printed JSON; the limit is ${MAX_REGIONS_SECTION}. Shorten region texts by {excess} characters (hiddenInfo has no runtime function for regions), or move detail to locations and worldLore.`,
  },
  // Built when asked (docs, tests), not when the module loads: about 1 MB of text that every check would build.
  get examples() {
    return {
      bad: { regions: regions(130) },
      good: { regions: regions(120) },
    };
  },
  check({ raw, text, report }) {
    if (raw.regions === undefined) return;
    let size: number | undefined;
    try {
      // Counted with no escapes, plus the most the text's escapes can add: surely within the cap, no string is searched for escapes.
      if (prettyJsonWithin(raw.regions, MAX_REGIONS_SECTION, escapeSlack(text))) return;
      size = prettyJsonLength(raw.regions);
    } catch {
      return;
    }
    if (size === undefined || size <= MAX_REGIONS_SECTION) return;
    report({ path: ["regions"], messageId: "size", data: { size, excess: size - MAX_REGIONS_SECTION } });
  },
});
