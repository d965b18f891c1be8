import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { MockServer } from "../ai/mock-server.ts";
import { Client, WORLD_TEXT } from "./harness.ts";

const BIN = fileURLToPath(new URL("../../bin/taleforge.js", import.meta.url));

/** `taleforge serve` as an operator starts it (SQLite in `data`); resolves with its URL once it is ready. */
async function serve(args: string[]): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(
    process.execPath,
    [BIN, "serve", "--port", "0", "--log-format", "json", "--open-uploads", ...args],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stdout!.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on("data", (c: Buffer) => {
    out += c.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out)?.[1];
      if (url) {
        clearInterval(timer);
        resolve({ child, url, output: () => out });
      }
    }, 50);
    child.on("exit", (code) => {
      clearInterval(timer);
      reject(new Error(`taleforge serve exited (${code}) before listening:\n${out}`));
    });
  });
}

/**
 * SIGTERM with a step in flight (docs/server.md, "Running it"): the server
 * stops accepting, finishes the step and commits it, answers the request that
 * was waiting for it, then exits 0; the next start finds the step stored.
 */
describe("server: graceful shutdown with a step in flight", () => {
  const folders: string[] = [];
  let mock: MockServer | undefined;
  after(async () => {
    await mock?.close();
    for (const f of folders) rmSync(f, { recursive: true, force: true });
  });

  it("answers the request whose step was running at SIGTERM, and stores the step", {
    timeout: 120_000,
  }, async () => {
    mock = await MockServer.start();
    let calls = 0;
    // A narrator that takes about 2 s to write the opening: SIGTERM arrives while it writes.
    const words = "The fog lifts slowly over the pier while the gulls cry over the grey water".split(" ");
    mock.handler = () => {
      calls++;
      return {
        sse: [
          ...words.map((w) => ({ choices: [{ delta: { content: `${w} ` } }] })),
          { choices: [{ delta: {}, finish_reason: "stop" }] },
        ],
        eventDelayMs: 150,
      };
    };
    const data = mkdtempSync(join(tmpdir(), "taleforge-shutdown-"));
    folders.push(data);
    const { child, url, output } = await serve(["--data", data, "--base-url", mock.url, "--model", "m"]);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const anyone = new Client(url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const created = (await anyone.post("/games", { world: hash, seed: 3 })).json;
    await anyone.post("/games/join", { invite: created.invite, character: { name: "Ann" } });
    const host = new Client(url, created.hostToken);
    const start = host.post(`/games/${created.id}/start`);
    const deadline = Date.now() + 30_000;
    while (calls === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(calls, 1, "the opening is being narrated");
    child.kill("SIGTERM");
    const answer = await start;
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.json.story, /The fog lifts slowly/);
    assert.equal(await exited, 0, output());
    const lines = output()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg: string });
    const order = lines.map((l) => l.msg).filter((m) => /stopping|step committed|^stopped/.test(m));
    assert.deepEqual(order, ["stopping: finishing the turns in flight", "step committed", "stopped"]);

    // The next start on the same folder has the opening.
    const again = await serve(["--data", data]);
    try {
      const game = await new Client(again.url, created.hostToken).get(`/games/${created.id}`);
      assert.equal(game.json.status, "running");
      assert.equal(game.json.seq, 1, "the opening was committed");
    } finally {
      again.child.kill("SIGTERM");
      await new Promise((resolve) => again.child.once("exit", resolve));
    }
  });
});
