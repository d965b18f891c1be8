import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { analyse } from "../analysis.ts";
import type { WorldModel } from "../model.ts";

const WRITES = new Set(["write-number", "write-string", "write-boolean", "write-array"]);
const MAX_RELATED = 3;

interface WriteSite {
  path: JsonPath;
  where: string;
}

export default defineRule({
  code: "lint/storage-never-read",
  severity: "warning",
  description: "A storage key is written, but no condition and no script ever reads it.",
  why: 'Storage exists for triggers to remember things for later conditions and scripts (spec 2.2, spec 4); the narrator never sees it. A key that is written but never read by a `read-*` condition, a script (`storage.x`, `storage["x"]`, `check({type: "read-number", key: "x"})`) or a condition of a trigger a script adds changes nothing in play: usually the reading side names the key differently, or the condition that should read it was never written. When any script reads keys built at run time (or cannot be followed), nothing is reported.',
  messages: {
    unread:
      "Storage key {key} is written here but never read: no read-* condition and no script reads it, so the write changes nothing in play.{suggestion} Read it where it matters, or remove the write.",
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: {
          effects: [
            { type: "quest-init", operator: "set", value: "Lost Sheep" },
            { type: "write-number", key: "sheep_lost", operator: "set", value: 12 },
          ],
        },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          effects: [
            { type: "quest-init", operator: "set", value: "Lost Sheep" },
            { type: "write-number", key: "sheep_lost", operator: "set", value: 12 },
          ],
        },
        many_sheep: {
          name: "many_sheep",
          conditions: [{ type: "read-number", key: "sheep_lost", operator: "greaterThan", value: 10 }],
          effects: [{ type: "story", instruction: "Bleating echoes across the marsh." }],
        },
      },
    },
  },
  check({ raw, report }) {
    const { model } = analyse(raw);
    if (model.readsAll) return;
    const read = new Set(model.reads.map((site) => site.key));
    for (const [key, sites] of writeSites(model)) {
      if (read.has(key)) continue;
      const [first, ...others] = sites;
      report({
        path: first!.path,
        messageId: "unread",
        data: { key: JSON.stringify(key), suggestion: didYouMean(key, read) },
        related: others.slice(0, MAX_RELATED).map((site) => ({
          path: site.path,
          message: `the key is also written here (${site.where})`,
        })),
      });
    }
  },
});

/** Key -> where it is written, in map order: typed effects (at their key), script effects and assignments (at the script). */
function writeSites(model: WorldModel): Map<string, WriteSite[]> {
  const out = new Map<string, WriteSite[]>();
  const add = (key: string, site: WriteSite) => {
    const list = out.get(key);
    if (list) list.push(site);
    else out.set(key, [site]);
  };
  for (const actor of model.actors) {
    for (const effect of actor.effects) {
      const key = effect.fields.key;
      if (!WRITES.has(effect.type) || typeof key !== "string" || effect.computed.includes("key")) continue;
      add(key, {
        path: effect.index === undefined ? effect.path : [...effect.path, "key"],
        where: effect.where,
      });
    }
    for (const site of actor.scriptWrites) add(site.key, site);
  }
  return out;
}
