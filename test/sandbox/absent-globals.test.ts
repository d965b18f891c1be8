import assert from "node:assert/strict";
import { after, test } from "node:test";
import { createSandbox } from "../../src/sandbox/index.ts";
import { ABSENT_GLOBALS } from "../../src/world/rules/script/unknown-global.ts";
import { onlyTriggers, say, start } from "../engine/helpers.ts";

/** script/unknown-global warns about ABSENT_GLOBALS: each one really is missing in the real sandbox, and `import()` fails there. */
const sandbox = createSandbox();
after(() => sandbox.close());

test("every global script/unknown-global reports is absent in the sandbox", async () => {
  const probe = ABSENT_GLOBALS.map((name) => `${JSON.stringify(name)}: typeof ${name}`).join(", ");
  const { session } = await start(
    onlyTriggers({
      probe: {
        conditions: [{ type: "game-tick", operator: "equals", value: 1 }],
        script: `storage.types = { ${probe} };\nstorage.viaGlobal = typeof globalThis.require;`,
      },
      importer: {
        conditions: [{ type: "game-tick", operator: "equals", value: 1 }],
        script: 'import("fs");',
      },
    }),
    { scripts: sandbox },
  );
  const result = await session.turn(say("wait"));
  const types = session.state.storage.types as Record<string, string>;
  assert.deepEqual(
    Object.entries(types).filter(([, type]) => type !== "undefined"),
    [],
    "present in the sandbox",
  );
  assert.equal(session.state.storage.viaGlobal, "undefined");
  const importer = result.trace.phases.flatMap((p) => p.triggers).find((t) => t.trigger === "importer");
  assert.notEqual(importer?.script?.status, "ran", "import() cannot run");
});
