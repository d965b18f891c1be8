import assert from "node:assert/strict";
import { it } from "node:test";
import serve from "../../src/cli/commands/serve.ts";
import { DEFAULT_MAX_STEPS } from "../../src/server/runner.ts";

// The command line states its defaults without loading the server (a fast start): they must be the server's.
it("taleforge serve's --max-steps default is the runner's", () => {
  const option = serve.options.find((o) => o.flags.startsWith("--max-steps"));
  assert.equal(option?.default, String(DEFAULT_MAX_STEPS));
});
