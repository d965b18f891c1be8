import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { MAX_TIMEOUT_SECONDS, resolveProviderConfig } from "../../src/ai/config.ts";

const dir = mkdtempSync(join(tmpdir(), "taleforge-timeout-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const base = { baseUrl: "http://127.0.0.1:1/v1", model: "m" };

async function outcome(timeout: string, from: "flags" | "file" = "flags"): Promise<number | string> {
  try {
    const input =
      from === "flags"
        ? { flags: { ...base, timeout } }
        : (() => {
            const file = join(dir, `${timeout}.json`);
            writeFileSync(file, JSON.stringify({ timeout: Number(timeout) }));
            return { flags: { ...base, config: file } };
          })();
    const config = await resolveProviderConfig({ env: {}, cwd: dir, home: dir, ...input });
    return config.provider === "openai" ? (config.timeoutMs ?? -1) : -1;
  } catch (error) {
    return (error as Error).message;
  }
}

test("--timeout beyond Node's timer range is refused, naming the limit (issue 15 item 7)", async () => {
  assert.equal(await outcome(String(MAX_TIMEOUT_SECONDS)), MAX_TIMEOUT_SECONDS * 1000);
  for (const value of ["2147484", "1e9", String(MAX_TIMEOUT_SECONDS + 1)]) {
    const message = await outcome(value);
    assert.equal(typeof message, "string", `${value} accepted`);
    assert.match(String(message), /over the limit of 86400 seconds/);
  }
  assert.match(String(await outcome("3000000", "file")), /over the limit of 86400 seconds/);
  assert.equal(await outcome("0.0001"), 1, "a tiny timeout is at least 1 ms");
});
