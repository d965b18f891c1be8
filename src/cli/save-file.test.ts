import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { MAX_SAVE_BYTES, readSaveText, saveTargetProblem, writeSaveFile } from "./save-file.ts";

const root = mkdtempSync(join(tmpdir(), "taleforge-save-file-"));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const folder = () => {
  const dir = join(root, String(n++));
  mkdirSync(dir);
  return dir;
};

describe("save files are written atomically, durably, to regular files only (issue 15 item 6)", () => {
  test("a new file is written whole, with no temporary file left", async () => {
    const dir = folder();
    assert.equal(await writeSaveFile(join(dir, "game.json"), '{"a":1}'), null);
    assert.equal(readFileSync(join(dir, "game.json"), "utf8"), '{"a":1}');
    assert.deepEqual(readdirSync(dir), ["game.json"]);
  });

  test("a FIFO or a folder is refused, never replaced by a regular file", async () => {
    const dir = folder();
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const problem = await writeSaveFile(fifo, "{}");
    assert.match(String(problem), /is a pipe \(FIFO\), not a regular file/);
    assert.ok(lstatSync(fifo).isFIFO(), "still a FIFO");
    assert.match(String(await writeSaveFile(dir, "{}")), /is a folder, not a regular file/);
    assert.match(String(await saveTargetProblem("/dev/null")), /is a device, not a regular file/);
    assert.deepEqual(readdirSync(dir), ["pipe"], "no temporary file left");
  });

  test("a symlink is written through: the link stays, the target gets the text and keeps its mode", async () => {
    const dir = folder();
    const real = join(dir, "real.json");
    writeFileSync(real, "old");
    chmodSync(real, 0o600);
    const link = join(dir, "link.json");
    symlinkSync("real.json", link);
    assert.equal(await writeSaveFile(link, "new"), null);
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.equal(readFileSync(real, "utf8"), "new");
    assert.equal(statSync(real).mode & 0o777, 0o600);
    // A dangling link creates its target.
    const dangling = join(dir, "dangling.json");
    symlinkSync("later.json", dangling);
    assert.equal(await writeSaveFile(dangling, "x"), null);
    assert.equal(readFileSync(join(dir, "later.json"), "utf8"), "x");
    assert.ok(lstatSync(dangling).isSymbolicLink());
  });

  test("a failed write leaves the old save intact and no temporary file; stale ones of dead processes go", async () => {
    const dir = folder();
    const save = join(dir, "game.json");
    writeFileSync(save, "old");
    // A temporary file of a killed process (pid 2^22+1 is above Linux's pid_max default, never alive).
    const stale = join(dir, `.game.json.${2 ** 22 + 1}.0badf00d.tmp`);
    writeFileSync(stale, "half");
    assert.equal(await writeSaveFile(save, "new"), null);
    assert.deepEqual(readdirSync(dir).sort(), ["game.json"]);
    const blocked = join(dir, "file-not-folder");
    writeFileSync(blocked, "");
    assert.match(String(await writeSaveFile(join(blocked, "game.json"), "x")), /ENOTDIR/);
    assert.equal(readFileSync(save, "utf8"), "new");
  });

  test("loading reads regular files only, and at most MAX_SAVE_BYTES", async () => {
    await assert.rejects(readSaveText("/dev/zero"), /is a device, not a save file/);
    const dir = folder();
    const big = join(dir, "big.json");
    writeFileSync(big, "");
    execFileSync("truncate", ["-s", String(MAX_SAVE_BYTES + 1), big]);
    await assert.rejects(readSaveText(big), /saves are at most 64 MB/);
  });
});
