import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { analyse, writeSitesByKey } from "../analysis.ts";

const MAX_RELATED = 3;

export default defineRule({
  code: "lint/storage-never-read",
  severity: "warning",
  description: "A storage key is written, but no condition and no script ever reads it.",
  why: 'Storage exists for triggers to remember things for later conditions and scripts (docs/format.md, triggers, docs/scripts.md); the narrator never sees it. A key that is written but never read by a `read-*` condition, a script (`storage.x`, `storage["x"]`, `check({type: "read-number", key: "x"})`) or a condition of a trigger a script adds changes nothing in play: usually the reading side names the key differently, or the condition that should read it was never written. When any script reads keys built at run time (or cannot be followed), nothing is reported.',
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
    // Typed effects at their key, script effects and assignments at the script.
    for (const [key, sites] of writeSitesByKey(model)) {
      if (read.has(key)) continue;
      const [first, ...others] = sites;
      report({
        path: first!.keyPath,
        messageId: "unread",
        data: { key: JSON.stringify(key), suggestion: didYouMean(key, read) },
        related: others.slice(0, MAX_RELATED).map((site) => ({
          path: site.keyPath,
          message: `the key is also written here (${site.where})`,
        })),
      });
    }
  },
});
