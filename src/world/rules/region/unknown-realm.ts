import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "region/unknown-realm",
  severity: "error",
  description: "A region's `realm` names no key of `realms`.",
  why: "A region appears on the map of the realm it names, and a party can travel only to locations whose region's realm is known (or has no realm). A realm that does not exist has no map and is never known, so the region's locations are unreachable. An omitted or empty realm is fine: the region is simply on no realm map.",
  messages: {
    unknown:
      'Region "{region}" is in realm "{realm}", which is not a key of realms.{suggestion} Use a realm key exactly as written, add the realm, or remove "realm" to keep the region off the realm maps.',
  },
  examples: {
    bad: { regions: { Southmarsh: { realm: "The Vale" } } },
    good: { regions: { Southmarsh: { realm: "" } } },
  },
  check({ world, raw, report }) {
    // Compare with every realm key as written, so a realm with its own shape problem is not "unknown" too.
    const known = keysOf(raw, "realms");
    if (!known) return;
    for (const [key, region] of Object.entries(world.regions)) {
      const { realm } = region;
      // Real exports write "" for "no realm"; the spec treats an omitted realm as valid.
      if (realm === undefined || realm === "" || known.has(realm)) continue;
      report({
        path: ["regions", key, "realm"],
        messageId: "unknown",
        data: { region: key, realm, suggestion: didYouMean(realm, known) },
      });
    }
  },
});
