import { baseWorld, testRule } from "../../../../test/helpers/world.ts";
import rule, { MAX_REGIONS_SECTION } from "./regions-section.ts";

const baseRegions = baseWorld().regions as Record<string, Record<string, unknown>>;

/** The base regions padded with one extra region so that the section is exactly `size` pretty-printed characters. */
function sized(size: number) {
  const extra = { name: "Far", basicInfo: "", x: 1, y: 0 };
  const emptySize = JSON.stringify({ ...baseRegions, Far: extra }, null, 2).length;
  return { regions: { Far: { ...extra, basicInfo: "r".repeat(size - emptySize) } } };
}

/** As sized, with the extra region's text ending in tabs (2 characters each as JSON, 1 counted without escapes). */
function sizedWithTabs(size: number, tabs: number) {
  const patch = sized(size - tabs);
  const far = patch.regions.Far;
  return { regions: { Far: { ...far, basicInfo: far.basicInfo.slice(tabs) + "\t".repeat(tabs) } } };
}

testRule(rule, {
  valid: [
    {},
    { name: "exactly at the limit", patch: sized(MAX_REGIONS_SECTION) },
    { name: "exactly at the limit with escapes", patch: sizedWithTabs(MAX_REGIONS_SECTION, 3) },
  ],
  invalid: [
    {
      name: "one character over",
      patch: sized(MAX_REGIONS_SECTION + 1),
      errors: [{ path: ["regions"], messageId: "size", data: { size: MAX_REGIONS_SECTION + 1, excess: 1 } }],
    },
    {
      name: "one character over by an escape, within the limit counted without escapes",
      patch: sizedWithTabs(MAX_REGIONS_SECTION + 1, 3),
      errors: [{ path: ["regions"], messageId: "size", data: { size: MAX_REGIONS_SECTION + 1, excess: 1 } }],
    },
    {
      name: "indentation counts: many small regions, under the limit as compact JSON",
      patch: {
        regions: Object.fromEntries(
          Array.from({ length: 3000 }, (_, i) => [
            `R${i}`,
            { name: `R${i}`, basicInfo: "r".repeat(40), x: i, y: 1, realm: "Vale", factions: ["Millers"] },
          ]),
        ),
      },
      errors: [{ path: ["regions"], messageId: "size" }],
    },
  ],
});
