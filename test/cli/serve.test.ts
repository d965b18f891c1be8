import assert from "node:assert/strict";
import { test } from "node:test";
import { run } from "../../src/cli/main.ts";
import { assertOneLine, captureIo } from "./helpers.ts";

// The server's own behaviour is tested in test/server/ (through runServer); here, the command's options.
test("serve refuses a port that is not a port number, before it loads the server (exit 2, one line)", async () => {
  const cli = captureIo();
  assert.equal(await run(["serve", "--port", "99999"], cli.io), 2);
  assert.equal(cli.stdout(), "");
  assertOneLine(cli.stderr());
  assert.match(cli.stderr(), /--port takes a port number \(0-65535\), not "99999"\./);
});

test("serve refuses an unknown provider before it creates the data folder (exit 2, one line)", async () => {
  const { existsSync, mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const parent = mkdtempSync(join(tmpdir(), "tf-serve-"));
  try {
    const data = join(parent, "data");
    const cli = captureIo();
    const code = await run(["serve", "--port", "0", "--data", data, "--provider", "bogus"], cli.io);
    assert.equal(code, 2);
    assertOneLine(cli.stderr());
    assert.match(cli.stderr(), /bogus/);
    assert.equal(existsSync(data), false, "nothing is written for a start that is refused");
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
