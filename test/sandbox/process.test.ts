import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { childEnv, spawnChild } from "../../src/sandbox/process.ts";

/**
 * The sandbox as seen from outside its host process: the time zone and locale
 * of the machine never reach a script (issue 15 item 10), and a host that
 * forgets `close()` still exits (issue 16 item 10). Each case runs a fixture
 * in a Node process of its own.
 */

const FIXTURES = new URL("./fixtures/", import.meta.url);

function runFixture(
  name: string,
  env: Record<string, string>,
  limitMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL(name, FIXTURES))], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, limitMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

describe("the sandbox seen from its host process", () => {
  it("scripts see UTC and en-US whatever the host's time zone and locale", async () => {
    const hosts = [
      { TZ: "UTC", LANG: "en_US.UTF-8", LC_ALL: "en_US.UTF-8" },
      { TZ: "America/New_York", LANG: "de_DE.UTF-8", LC_ALL: "de_DE.UTF-8" },
      { TZ: "Asia/Kolkata", LANG: "fr_FR.UTF-8", LC_ALL: "fr_FR.UTF-8" },
    ];
    const outputs: string[] = [];
    for (const env of hosts) {
      const run = await runFixture("locale-probe.ts", env, 120_000);
      assert.equal(run.code, 0, run.stderr);
      outputs.push(run.stdout);
    }
    assert.equal(outputs[1], outputs[0]);
    assert.equal(outputs[2], outputs[0]);
    const seen = JSON.parse(outputs[0] as string) as unknown[];
    assert.deepEqual(seen.slice(0, 9), [
      "Mon Jun 01 2020 12:00:00 GMT+0000 (Coordinated Universal Time)",
      0,
      0,
      "1,234,567.891",
      "1/1/1970, 12:00:00 AM",
      "1/1/1970",
      "UTC",
      "en-US",
      "en-US",
    ]);
  });

  it("a host that never calls close() still exits once its work is done", async () => {
    const run = await runFixture("forgotten-close.ts", {}, 60_000);
    assert.equal(run.timedOut, false, "the host process did not exit");
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'played {"n":2}');
  });

  it("the sandbox process starts without NODE_EXTRA_CA_CERTS and keeps the rest of the host's environment", async (t) => {
    const host = {
      PATH: "/usr/bin",
      NODE_EXTRA_CA_CERTS: "/etc/ssl/extra.pem",
      TZ: "Asia/Kolkata",
      KEEP_ME: "1",
    };
    assert.deepEqual(childEnv(host), {
      PATH: "/usr/bin",
      KEEP_ME: "1",
      TZ: "UTC",
      LANG: "en_US.UTF-8",
      LC_ALL: "en_US.UTF-8",
      LANGUAGE: "en_US",
    });
    if (process.platform !== "linux") {
      t.skip("reads the process's environment from /proc");
      return;
    }
    // The real process: what the kernel started it with, not what childEnv answers.
    const saved = process.env.NODE_EXTRA_CA_CERTS;
    process.env.NODE_EXTRA_CA_CERTS = "/nonexistent/extra-ca.pem";
    const child = spawnChild();
    // The sandbox's process and channel do not hold the event loop open; the test must.
    const awake = setInterval(() => undefined, 1000);
    try {
      await child.ready;
      const environ = readFileSync(`/proc/${child.process.pid}/environ`, "utf8").split("\0");
      assert.equal(environ.filter((entry) => entry.startsWith("NODE_EXTRA_CA_CERTS=")).length, 0);
      assert.ok(environ.includes("TZ=UTC"), "the fixed time zone reaches the process");
      assert.ok(environ.includes(`PATH=${process.env.PATH}`), "the host's PATH reaches the process");
    } finally {
      clearInterval(awake);
      child.process.kill("SIGKILL");
      if (saved === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = saved;
    }
  });
});
