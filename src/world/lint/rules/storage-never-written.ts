import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { analyse } from "../analysis.ts";
import { holds } from "../conditions.ts";
import { FALLBACK_TEXT, READ_KINDS, type StorageKind } from "../facts.ts";

const ALL_KINDS: StorageKind[] = ["number", "string", "boolean", "array"];
/** The fallback a read sees (spec 2.2), as the value the condition tests: read-array tests "contains?". */
const FALLBACK_VALUE: Record<StorageKind, unknown> = { number: 0, string: "", boolean: false, array: false };
const A_KIND: Record<StorageKind, string> = {
  number: "a number",
  string: "a string",
  boolean: "a boolean",
  array: "an array",
};

export default defineRule({
  code: "lint/storage-never-written",
  severity: "warning",
  description: "A `read-*` condition reads a storage key that nothing ever writes with that type.",
  why: '`read-*` conditions and `write-*` effects share one storage, and a read of a missing key (or of a value of another type) sees a fallback: 0, "", false or [] (docs/format.md, triggers). A key no `write-*` effect (of any trigger or narrative event) and no script writes is almost always a typo or a forgotten write: when the fallback fails the condition, the trigger never fires; when it passes, the condition always holds and tests nothing. Scripts count as writing every key they assign (`storage.x = …`); a script that writes keys built at run time, or that reading cannot follow, counts as writing every key, so nothing is reported then.',
  messages: {
    neverHolds:
      "Storage key {key} is never written as {aKind} (by any effect or script), so it always reads as {fallback} and this condition never holds: trigger {trigger} never fires.{suggestion} Write the key with a write-{kind} effect (or in a script), or fix its name.",
    alwaysFallback:
      "Storage key {key} is never written as {aKind} (by any effect or script), so this condition always sees {fallback} and always holds: it tests nothing.{suggestion} Write the key with a write-{kind} effect (or in a script), or remove the condition.",
    wrongType:
      "Storage key {key} is read as {aKind} here but only ever written as {written}; a read of another type sees the fallback {fallback} (docs/format.md, triggers). Read it with the type it is written with, or write it as {aKind}.",
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: {
          conditions: [{ type: "read-boolean", key: "heard_bleating", operator: "equals", value: true }],
        },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          conditions: [{ type: "read-boolean", key: "heard_bleating", operator: "equals", value: true }],
        },
        hear_bleating: {
          name: "hear_bleating",
          conditions: [{ type: "party-location", operator: "equals", value: "Fen Hut" }],
          effects: [{ type: "write-boolean", key: "heard_bleating", operator: "set", value: true }],
        },
      },
    },
  },
  check({ raw, report }) {
    const { model, everything } = analyse(raw);
    let written: Map<StorageKind, string[]> | undefined;
    for (const actor of model.triggers.values()) {
      for (const condition of actor.conditions) {
        const kind = READ_KINDS[condition.type];
        if (kind === undefined || everything.written(condition.ref, kind)) continue;
        const key = JSON.stringify(condition.ref);
        const path = [...condition.path, "key"];
        const others = ALL_KINDS.filter(
          (other) => other !== kind && everything.written(condition.ref, other),
        );
        if (others.length > 0) {
          report({
            path,
            messageId: "wrongType",
            data: {
              key,
              aKind: A_KIND[kind],
              written: others.map((other) => A_KIND[other]).join(" or "),
              fallback: FALLBACK_TEXT[kind],
            },
          });
          continue;
        }
        written ??= writtenKeys(everything);
        report({
          path,
          messageId: holds(condition, FALLBACK_VALUE[kind]) ? "alwaysFallback" : "neverHolds",
          data: {
            key,
            kind,
            aKind: A_KIND[kind],
            fallback: FALLBACK_TEXT[kind],
            trigger: JSON.stringify(actor.key),
            suggestion: didYouMean(condition.ref, written.get(kind) ?? []),
          },
        });
      }
    }
  },
});

function writtenKeys(everything: ReturnType<typeof analyse>["everything"]): Map<StorageKind, string[]> {
  const out = new Map<StorageKind, string[]>(ALL_KINDS.map((kind) => [kind, []]));
  for (const key of everything.storage.keys()) {
    for (const kind of ALL_KINDS) if (everything.written(key, kind)) out.get(kind)!.push(key);
  }
  return out;
}
