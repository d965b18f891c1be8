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
