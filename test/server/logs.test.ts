import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createLogger } from "../../src/server/logger.ts";
import { MockServer } from "../ai/mock-server.ts";
import { Client, WORLD_TEXT } from "./harness.ts";

const BIN = fileURLToPath(new URL("../../bin/taleforge.js", import.meta.url));
const SECRET = "sk-test-0123456789abcdefSECRETKEY";

function collector() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

/** `taleforge serve` as an operator starts it; resolves with its URL once it listens. */
function serve(args: string[]): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [BIN, "serve", "--port", "0", "--open-uploads", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on("data", (c: Buffer) => {
    out += c.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const url =
        /(http:\/\/127\.0\.0\.1:\d+)/.exec(out.split("taleforge serve is listening")[1] ?? "")?.[1] ??
        /url[=":]+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
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

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exited;
}

describe("server: logs", () => {
  const folders: string[] = [];
  let mock: MockServer | undefined;
  after(async () => {
    await mock?.close();
    for (const f of folders) rmSync(f, { recursive: true, force: true });
  });

  it("formats lines for a person: time, level, message, fields; outside text escaped", () => {
    const { lines, stream } = collector();
    const log = createLogger({ destination: stream, format: "pretty", color: false });
    log.info(
      { game: "3f2a", tick: 4, durationMs: 38, req: { method: "GET", url: "/games/x y" } },
      "step committed",
    );
    log.warn({ name: "\u001b]0;pwned\u0007" }, "world \u001b[2Jname");
    assert.match(
      lines[0]!,
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}step committed game=3f2a tick=4 durationMs=38 req\.method=GET req\.url="\/games\/x y"$/,
    );
    assert.match(lines[1]!, /^\d\d:\d\d:\d\d\.\d{3} WARN {2}world \\u001b\[2Jname name=/);
    assert.ok(!lines.join("\n").includes("\u001b"), "no control character reaches the terminal");
  });

  it("scrubs tokens, bearer credentials and the configured secrets from every field and message", () => {
    const { lines, stream } = collector();
    const log = createLogger({ destination: stream, format: "json", secrets: [SECRET] });
    const token = `tfh_${"A1b2".repeat(10)}`;
    log.error({ err: new Error(`the provider said: bad key ${SECRET}`) }, "step failed");
    log.info(
      { req: { url: `/games/x?token=${token}`, headers: { authorization: `Bearer ${token}` } } },
      "request",
    );
    log.warn(
      { apiKey: "plain-key-value", config: { apiKey: "nested-key-value" } },
      `Bearer abc.def ${token}`,
    );
    const text = lines.join("\n");
    for (const secret of [SECRET, token, "plain-key-value", "nested-key-value", "abc.def"])
      assert.ok(!text.includes(secret), `${secret} is not in the log`);
    assert.equal(lines.length, 3);
    assert.match(text, /\[redacted\]/);
  });

  it("writes JSON lines when the output is not a terminal", () => {
    const { lines, stream } = collector();
    createLogger({ destination: stream }).info({ game: "g" }, "hello");
    const record = JSON.parse(lines[0]!);
    assert.equal(record.msg, "hello");
    assert.equal(record.game, "g");
  });

  it("never writes a token or the API key, even when the provider echoes the key in an error", {
    timeout: 120_000,
  }, async () => {
    mock = await MockServer.start();
    // A provider that rejects the key and quotes it back, as some do.
    mock.handler = (request) => ({
      status: 401,
      json: { error: { message: `Incorrect API key provided: ${request.headers.authorization}` } },
    });
    const data = mkdtempSync(join(tmpdir(), "taleforge-logs-"));
    folders.push(data);
    const { child, url, output } = await serve([
      "--data",
      data,
      "--log-format",
      "json",
      "--base-url",
      mock.url,
      "--model",
      "test-model",
      "--api-key",
      SECRET,
      "--timeout",
      "5",
    ]);
    const anyone = new Client(url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const created = (await anyone.post("/games", { world: hash, seed: 1 })).json;
    const joined = (await anyone.post("/games/join", { invite: created.invite, character: { name: "Ann" } }))
      .json;
    const host = new Client(url, created.hostToken);
    const failed = await host.post(`/games/${created.id}/start`);
    assert.equal(failed.status, 502, failed.text);
    assert.ok(mock.requests.length > 0, "the provider was called with the key");
    assert.equal(mock.requests[0]!.headers.authorization, `Bearer ${SECRET}`);
    await new Client(url, joined.token).get(`/games/${created.id}`);
    await new Client(url, `tfp_${"x".repeat(40)}`).get(`/games/${created.id}`);
    assert.equal(await stop(child), 0, "SIGTERM stops it gracefully");
    const text = output();
    const lines = text.split("\n").filter(Boolean);
    assert.ok(
      lines.every((l) => JSON.parse(l)),
      "every line is JSON",
    );
    assert.ok(
      lines.some((l) => JSON.parse(l).msg === "request completed"),
      "requests are logged",
    );
    assert.ok(
      lines.some((l) => JSON.parse(l).code === "turn/failed"),
      "the failed step is logged",
    );
    for (const secret of [SECRET, created.hostToken, joined.token, "x".repeat(40)])
      assert.ok(!text.includes(secret), `the log never holds ${secret.slice(0, 6)}…`);
  });

  it("writes one line per request, event streams included (dropped by the client or ended by shutdown)", {
    timeout: 60_000,
  }, async () => {
    const data = mkdtempSync(join(tmpdir(), "taleforge-logs-"));
    folders.push(data);
    const { child, url, output } = await serve(["--data", data, "--log-format", "json"]);
    const anyone = new Client(url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const created = (await anyone.post("/games", { world: hash, seed: 1 })).json;
    await anyone.get("/nowhere");
    const events = `${url}/games/${created.id}/events`;
    const headers = { authorization: `Bearer ${created.hostToken}` };
    const dropped = new AbortController();
    const first = await fetch(events, { headers, signal: dropped.signal });
    assert.equal(first.status, 200);
    dropped.abort();
    const second = await fetch(events, { headers });
    assert.equal(second.status, 200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await stop(child), 0);
    const records = output()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg: string; reqId?: string; req?: { method: string; url: string } });
    const perRequest = records.filter((r) => r.reqId !== undefined);
    assert.deepEqual(
      perRequest.map((r) => `${r.msg} ${r.req?.method} ${r.req?.url.split("/").at(-1)}`),
      [
        "request completed POST worlds",
        "request completed POST games",
        "request completed GET nowhere",
        "request completed GET events",
        "request completed GET events",
      ],
    );
    assert.equal(new Set(perRequest.map((r) => r.reqId)).size, 5, "each request once");
    for (const r of perRequest) {
      const line = r as unknown as { res: { statusCode: number }; responseTime: number };
      assert.equal(typeof line.res.statusCode, "number");
      assert.equal(typeof line.responseTime, "number");
    }
  });

  it("is readable on a terminal with --log-format pretty", { timeout: 60_000 }, async () => {
    const data = mkdtempSync(join(tmpdir(), "taleforge-logs-"));
    folders.push(data);
    const { child, url, output } = await serve(["--data", data, "--log-format", "pretty"]);
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    assert.equal(await stop(child), 0);
    const text = output();
    assert.match(text, /^\d\d:\d\d:\d\d\.\d{3} INFO {2}taleforge serve is listening store=/m);
    assert.match(
      text,
      /INFO {2}request completed reqId=\S+ req\.method=GET req\.url=\/healthz .*res\.statusCode=200/,
    );
    assert.doesNotMatch(text, /\{"level"/, "no JSON lines");
  });
});
