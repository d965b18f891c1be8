import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { sourceStamp, upToDate, writeStamp } from "../../scripts/prepare.mjs";

// `prepare` skips the build when dist/ was built from the same sources (npx in a clone runs it
// again). The stamp must change with any file the build reads, and with nothing else.
test("the build stamp follows every source the build reads, and nothing else", () => {
  const root = mkdtempSync(join(tmpdir(), "taleforge-stamp-"));
  try {
    for (const dir of ["src/engine", "web", "scripts", "examples", "node_modules/x", "dist"])
      mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, "src/engine/a.ts"), "export const a = 1;\n");
    writeFileSync(join(root, "web/app.tsx"), "x\n");
    writeFileSync(join(root, "package.json"), "{}\n");
    const first = sourceStamp(root);
    assert.equal(sourceStamp(root), first, "the same sources give the same stamp");

    writeFileSync(join(root, "node_modules/x/index.js"), "changed\n");
    writeFileSync(join(root, "dist/out.js"), "built\n");
    assert.equal(sourceStamp(root), first, "dependencies' files and the build's output are not sources");

    writeFileSync(join(root, "src/engine/a.ts"), "export const a = 2;\n");
    const edited = sourceStamp(root);
    assert.notEqual(edited, first, "an edited source changes the stamp");

    writeFileSync(join(root, "src/engine/b.ts"), "");
    assert.notEqual(sourceStamp(root), edited, "a new (even empty) source changes the stamp");

    writeFileSync(join(root, "package.json"), '{"version":"2"}\n');
    assert.notEqual(sourceStamp(root), edited, "package.json is a source");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("dist/ is up to date only with a stamp of the current sources", () => {
  const out = mkdtempSync(join(tmpdir(), "taleforge-dist-"));
  try {
    assert.equal(upToDate(out), false, "no stamp: build");
    writeStamp(out);
    assert.equal(upToDate(out), true);
    writeFileSync(join(out, "build-stamp"), "0000\n");
    assert.equal(upToDate(out), false, "another stamp: build");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
