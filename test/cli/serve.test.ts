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

test("serve refuses a --database that is not a PostgreSQL URL, without showing it back (exit 2, one line)", async () => {
  const cli = captureIo();
  assert.equal(await run(["serve", "--port", "0", "--database", "mysql://root:s3cret@db/games"], cli.io), 2);
  assertOneLine(cli.stderr());
  assert.match(
    cli.stderr(),
    /--database takes a PostgreSQL URL \(postgresql:\/\/user@host:5432\/database\), not a "mysql:" URL\./,
  );
  assert.doesNotMatch(cli.stderr(), /s3cret/);
});

test("serve says which port is in use and frees the data folder (exit 2, one line)", {
  timeout: 60_000,
}, async () => {
  const { mkdtempSync, readdirSync, rmSync } = await import("node:fs");
  const { createServer } = await import("node:net");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const parent = mkdtempSync(join(tmpdir(), "tf-serve-"));
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  try {
    const port = (busy.address() as { port: number }).port;
    const data = join(parent, "data");
    const cli = captureIo();
    assert.equal(await run(["serve", "--port", String(port), "--data", data], cli.io), 2);
    assertOneLine(cli.stderr());
    assert.match(
      cli.stderr(),
      new RegExp(
        `Port ${port} of 127\\.0\\.0\\.1 is in use by another program .*choose another port with --port\\.`,
      ),
    );
    assert.ok(!readdirSync(data).includes("taleforge.lock"), "the data folder's lock is released");
  } finally {
    busy.close();
    rmSync(parent, { recursive: true, force: true });
  }
});
