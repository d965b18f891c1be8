import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  Client,
  closeSandbox,
  DATABASE_URL,
  dropStore,
  listen,
  type Running,
  STORE_NAME,
  startServer,
  WORLD_TEXT,
} from "./harness.ts";

const DOC = readFileSync(new URL("../../docs/server.md", import.meta.url), "utf8");
const caddyMissing = spawnSync("sh", ["-c", "command -v caddy"]).status !== 0;

/** docs/server.md's Caddy sample, with its site and upstreams replaced by local ones. */
export function caddySample(doc: string, site: string, upstreams: string[]): string {
  const block = /```caddy\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error("docs/server.md has no Caddy sample");
  assert.match(block, /play\.example\.org/);
  assert.match(block, /127\.0\.0\.1:8081 127\.0\.0\.1:8082/);
  return `{\n\tadmin off\n}\n${block
    .replace("play.example.org", site)
    .replace("127.0.0.1:8081 127.0.0.1:8082", upstreams.join(" "))}`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * docs/server.md's Caddy sample in front of two servers (two on one PostgreSQL database; on SQLite,
 * one and a stopped one, as SQLite serves from one process): events stream through it as they are
 * written, a stream whose client left frees its place at once, a stream resumes with Last-Event-ID,
 * and with one process stopped every request is served by the other.
 */
describe(`server: the Caddy sample of docs/server.md (${STORE_NAME})`, () => {
  const servers: Running[] = [];
  let caddy: ChildProcess | undefined;
  const home = mkdtempSync(join(tmpdir(), "taleforge-caddy-"));
  after(async () => {
    if (caddy && caddy.exitCode === null) {
      const exited = new Promise((r) => caddy!.once("exit", r));
      caddy.kill("SIGTERM");
      await exited;
    }
    for (const running of servers) await running.close().catch(() => {});
    if (servers[0]) await dropStore(servers[0].where);
    rmSync(home, { recursive: true, force: true });
    await closeSandbox();
  });

  it("streams, resumes and fails over through Caddy", {
    timeout: 120_000,
    skip: caddyMissing ? "caddy is not installed (apt-get install caddy)" : false,
  }, async () => {
    const first = await startServer();
    servers.push(first);
    const upstreams = [first.url.replace("http://", "")];
    if (DATABASE_URL) {
      const second = await startServer({ where: first.where });
      servers.push(second);
      upstreams.push(second.url.replace("http://", ""));
    } else upstreams.push(`127.0.0.1:${await freePort()}`);
    const port = await freePort();
    const file = join(home, "Caddyfile");
    writeFileSync(file, caddySample(DOC, `http://127.0.0.1:${port}`, upstreams));
    const proc = spawn("caddy", ["run", "--config", file, "--adapter", "caddyfile"], {
      env: { ...process.env, XDG_CONFIG_HOME: home, XDG_DATA_HOME: home, HOME: home },
      stdio: ["ignore", "ignore", "pipe"],
    });
    caddy = proc;
    let caddyLog = "";
    proc.stderr!.on("data", (chunk: Buffer) => {
      caddyLog += chunk.toString();
    });
    const proxy = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      const up = await fetch(`${proxy}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      assert.ok(i < 100, `caddy did not start: ${caddyLog}`);
      await pause(100);
    }

    const anyone = new Client(proxy);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const created = (await anyone.post("/games", { world: hash, seed: 3 })).json;
    const host = new Client(proxy, created.hostToken);
    const id = created.id as string;
    const stream = listen(`${proxy}/games/${id}/events`, created.hostToken);
    assert.equal(await stream.ready, 200);
    const joinAs = async (name: string) =>
      new Client(
        proxy,
        (await anyone.post("/games/join", { invite: created.invite, character: { name } })).json.token,
      );
    const ann = await joinAs("Ann");
    // Not buffered: the event arrives while the stream stays open.
    await stream.until((events) => events.some((e) => e.event === "player-joined"), 5_000);
    const bo = await joinAs("Bo");
    assert.equal((await host.post(`/games/${id}/start`)).status, 200);
    await stream.until((events) => events.some((e) => e.event === "narration"), 10_000);
    await stream.until((events) => events.some((e) => e.event === "turn"), 10_000);
    const lastId = stream.events.filter((e) => e.id !== undefined).at(-1)!.id!;
    stream.close();

    // Missed while away, then resumed with Last-Event-ID (on whichever process).
    assert.equal(
      (await ann.post(`/games/${id}/actions`, { text: "look", idempotencyKey: "a1" })).status,
      202,
    );
    const resumed = listen(`${proxy}/games/${id}/events`, created.hostToken, lastId);
    await resumed.until((events) => events.some((e) => e.event === "submission"), 10_000);
    assert.ok(Number(resumed.events.find((e) => e.id)!.id) > Number(lastId));
    resumed.close();

    // One process stopped (on SQLite the second was never there): every request is served.
    if (servers[1]) await servers.pop()!.close();
    // A stream whose client went away frees its place (4 per token, on the one process left) at once,
    // not a minute later.
    for (let i = 0; i < 6; i++) {
      const short = listen(`${proxy}/games/${id}/events`, ann.token!);
      assert.equal(await short.ready, 200, `stream ${i + 1} of the same token, one at a time`);
      short.close();
      await pause(300);
    }

    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) statuses.push((await anyone.get("/readyz")).status);
    statuses.push((await bo.post(`/games/${id}/actions`, { text: "look", idempotencyKey: "b1" })).status);
    const again = listen(`${proxy}/games/${id}/events`, bo.token!);
    statuses.push(await again.ready);
    again.close();
    assert.deepEqual(statuses, [...Array(16).fill(200), 202, 200], "no 502 while one process is down");
  });
});
