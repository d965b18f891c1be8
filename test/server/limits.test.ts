import assert from "node:assert/strict";
import http from "node:http";
import { describe, it } from "node:test";
import {
  Client,
  eventually,
  listen,
  type Running,
  STORE_NAME,
  startedGame,
  suiteServers,
  WORLD_TEXT,
} from "./harness.ts";

/** A GET over a connection from a chosen local address (127.0.0.0/8 is all loopback on Linux). */
function getFrom(
  url: string,
  from: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  json: { error?: { code: string; details: Record<string, unknown> } };
  headers: http.IncomingHttpHeaders;
}> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { localAddress: from, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (c: string) => {
        text += c;
      });
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          json: JSON.parse(text || "{}"),
          headers: response.headers,
        }),
      );
    });
    request.on("error", reject);
  });
}

/** The status of an event stream opened from a chosen local address; the stream is closed at once. */
function streamStatusFrom(url: string, from: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      { localAddress: from, headers: { authorization: `Bearer ${token}` } },
      (r) => {
        resolve(r.statusCode ?? 0);
        request.destroy();
      },
    );
    request.on("error", reject);
  });
}

/** Uploads the example world, creates a game, joins players and starts it. */
async function game(running: Running, names: string[], extra: Record<string, unknown> = {}) {
  const anyone = new Client(running.url);
  const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
  const made = await startedGame(running.url, hash, { body: { seed: 4, ...extra }, names });
  return { id: made.id, host: made.host, players: made.players };
}

/** The limits of issue 11: requests per token and per address, actions per token, CORS, turn timeouts, streams. */
describe(`server: limits (${STORE_NAME})`, () => {
  const start = suiteServers();

  it("limits requests per token and per address, and actions per token, with rate/limited", {
    timeout: 60_000,
  }, async () => {
    const running = await start({ perMinute: 8, actionsPerMinute: 3, trustProxy: "127.0.0.1" });
    const { id, players } = await game(running, ["Ann", "Bea"]);
    const [ann, bea] = players as [Client, Client];
    // Per token: Ann's token runs out; Bea's does not.
    for (let i = 0; i < 8; i++) assert.equal((await ann.get(`/games/${id}`)).status, 200, `request ${i + 1}`);
    const limited = await ann.get(`/games/${id}`);
    assert.equal(limited.status, 429);
    assert.equal(limited.json.error.code, "rate/limited");
    assert.equal(limited.json.error.details.limit, 8);
    assert.ok(Number(limited.headers.get("retry-after")) > 0, "Retry-After says when");
    assert.equal((await bea.get(`/games/${id}`)).status, 200, "another token is not limited");

    // Per address, without a token: 127.0.0.2 runs out, 127.0.0.3 does not.
    for (let i = 0; i < 8; i++)
      assert.equal((await getFrom(`${running.url}/worlds`, "127.0.0.2")).status, 200);
    const byAddress = await getFrom(`${running.url}/worlds`, "127.0.0.2");
    assert.equal(byAddress.status, 429);
    assert.equal(byAddress.json.error?.code, "rate/limited");
    assert.equal((await getFrom(`${running.url}/worlds`, "127.0.0.3")).status, 200);
    // Health checks are never refused (a load balancer must not take a busy server out).
    assert.equal((await getFrom(`${running.url}/healthz`, "127.0.0.2")).status, 200);
    assert.equal((await getFrom(`${running.url}/readyz`, "127.0.0.2")).status, 200);
    // A client that is not the trusted proxy cannot pick another address with X-Forwarded-For...
    const spoofed = await getFrom(`${running.url}/worlds`, "127.0.0.2", {
      "x-forwarded-for": "203.0.113.9",
    });
    assert.equal(spoofed.status, 429, "X-Forwarded-For from an untrusted peer is ignored");
    // ...while the trusted proxy's X-Forwarded-For names the client.
    const proxied = await getFrom(`${running.url}/worlds`, "127.0.0.1", {
      "x-forwarded-for": "203.0.113.9",
    });
    assert.equal(proxied.status, 200);
  });

  it("counts actions per token, but never a retry of a stored key", { timeout: 60_000 }, async () => {
    const running = await start({ actionsPerMinute: 3 });
    const { id, players } = await game(running, ["Ann", "Bea"]);
    const [ann, bea] = players as [Client, Client];
    const codes: number[] = [];
    for (let tick = 1; tick <= 4; tick++) {
      const sent = await bea.post(`/games/${id}/actions`, { text: "wait", idempotencyKey: `t${tick}` });
      codes.push(sent.status);
      if (sent.status !== 202) {
        assert.equal(sent.json.error.code, "rate/limited");
        assert.equal(sent.json.error.details.counts, "actions");
        assert.match(sent.json.error.message, /Too many actions with this token: at most 3 per minute/);
        break;
      }
      // Retries of the key just stored (a client that lost the answer): the same submission, not counted.
      for (let retry = 0; retry < 5; retry++) {
        const again = await bea.post(`/games/${id}/actions`, { text: "wait", idempotencyKey: `t${tick}` });
        assert.equal(again.status, 202, again.text);
        assert.equal(again.json.duplicate, true);
      }
      assert.equal(
        (await ann.post(`/games/${id}/actions`, { text: "wait", idempotencyKey: `t${tick}` })).status,
        202,
      );
      await eventually(
        () => ann.get(`/games/${id}`),
        (g) => g.json.tick === tick,
        30_000,
      );
    }
    assert.deepEqual(codes, [202, 202, 202, 429], "three actions, then refused; retries never counted");
    // Over the limit, a retry of a stored key is still answered with its submission.
    const late = await bea.post(`/games/${id}/actions`, { text: "wait", idempotencyKey: "t3" });
    assert.equal(late.status, 202, late.text);
    assert.equal(late.json.duplicate, true);
  });

  it("counts every request of an address on it, over all the tokens it holds", {
    timeout: 60_000,
  }, async () => {
    const running = await start({ perMinute: 10, perAddressPerMinute: 15, trustProxy: "127.0.0.1" });
    // One client creates games for their host tokens, each with its own per-token budget...
    const anyone = new Client(running.url);
    const hash = (await anyone.get("/worlds")).json.worlds[0].hash;
    const tokens: { id: string; token: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const created = (await anyone.post("/games", { world: hash, seed: i })).json;
      tokens.push({ id: created.id, token: created.hostToken });
    }
    // ...and spends them all from 127.0.0.5: the address's budget (15) ends it, not the 3 x 10 of its tokens.
    const statuses: number[] = [];
    let refusal: Awaited<ReturnType<typeof getFrom>> | undefined;
    for (let i = 0; i < 24; i++) {
      const { id, token } = tokens[i % 3]!;
      const answer = await getFrom(`${running.url}/games/${id}`, "127.0.0.5", {
        authorization: `Bearer ${token}`,
      });
      statuses.push(answer.status);
      if (answer.status === 429) refusal ??= answer;
    }
    assert.equal(statuses.filter((s) => s === 200).length, 15, statuses.join(" "));
    assert.equal(refusal?.json.error?.code, "rate/limited");
    assert.deepEqual(
      { per: refusal?.json.error?.details.per, limit: refusal?.json.error?.details.limit },
      { per: "address", limit: 15 },
    );
    assert.ok(Number(refusal?.headers["retry-after"]) > 0);
    // Another address is not affected.
    const { id, token } = tokens[0]!;
    assert.equal(
      (await getFrom(`${running.url}/games/${id}`, "127.0.0.6", { authorization: `Bearer ${token}` })).status,
      200,
    );
  });

  it("sends no CORS headers by default, and allows exactly the --cors origin", async () => {
    const closed = await start({});
    const open = await start({ cors: "https://play.example.org" });
    const preflight = (url: string, origin: string) =>
      fetch(`${url}/games`, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type",
        },
      });
    const off = await preflight(closed.url, "https://play.example.org");
    assert.equal(off.headers.get("access-control-allow-origin"), null);
    const offGet = await fetch(`${closed.url}/healthz`, { headers: { origin: "https://play.example.org" } });
    assert.equal(offGet.headers.get("access-control-allow-origin"), null);

    const on = await preflight(open.url, "https://play.example.org");
    assert.equal(on.status, 204);
    assert.equal(on.headers.get("access-control-allow-origin"), "https://play.example.org");
    assert.match(on.headers.get("access-control-allow-headers") ?? "", /authorization/);
    const onGet = await fetch(`${open.url}/healthz`, { headers: { origin: "https://play.example.org" } });
    assert.equal(onGet.headers.get("access-control-allow-origin"), "https://play.example.org");
    const other = await fetch(`${open.url}/healthz`, { headers: { origin: "https://evil.example" } });
    assert.equal(other.headers.get("access-control-allow-origin"), null, "another origin is not allowed");
  });

  it("runs a turn after the game's timeout with the actions submitted so far", {
    timeout: 60_000,
  }, async () => {
    const running = await start({});
    const { id, host, players } = await game(running, ["Ann", "Bea"], { turnTimeoutSeconds: 5 });
    const sent = Date.now();
    assert.equal(
      (await players[0]!.post(`/games/${id}/actions`, { text: "look around", idempotencyKey: "k" })).status,
      202,
    );
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal((await host.get(`/games/${id}`)).json.tick, 0, "Bea has not submitted: the turn waits");
    await eventually(
      () => host.get(`/games/${id}`),
      (a) => a.json.tick === 1,
      30_000,
    );
    assert.ok(Date.now() - sent >= 4900, "not before the timeout");
    const transcript = (await host.get(`/games/${id}/transcript`)).json.transcript;
    assert.deepEqual(transcript[1].inputs.actions, [{ player: "Ann", text: "look around" }]);
  });

  it("caps the event streams open per token", { timeout: 60_000 }, async () => {
    const running = await start({ streams: { perToken: 2 } });
    const { id, players } = await game(running, ["Ann", "Bea"]);
    const url = `${running.url}/games/${id}/events`;
    const first = listen(url, players[0]!.token!);
    const second = listen(url, players[0]!.token!);
    assert.equal(await first.ready, 200);
    assert.equal(await second.ready, 200);
    const third = await players[0]!.get(`/games/${id}/events`);
    assert.equal(third.status, 429);
    assert.equal(third.json.error.code, "sse/too-many");
    const bea = listen(url, players[1]!.token!);
    assert.equal(await bea.ready, 200, "another token has its own streams");
    first.close();
    const again = await eventually(
      async () => {
        const s = listen(url, players[0]!.token!);
        const status = await s.ready;
        if (status !== 200) s.close();
        return { status, s };
      },
      (r) => r.status === 200,
      10_000,
    );
    again.s.close();
    second.close();
    bea.close();
  });

  it("caps the event streams open from one address, over all its games and tokens", {
    timeout: 60_000,
  }, async () => {
    const running = await start({ streams: { perToken: 4, perAddress: 3 } });
    // Anyone may create games: each brings a host token with streams of its own.
    const games = [await game(running, ["Ann"]), await game(running, ["Bea"])];
    const hostOf = (g: (typeof games)[number]) => g.host.token!;
    const url = (g: (typeof games)[number]) => `${running.url}/games/${g.id}/events`;
    const streams = [
      listen(url(games[0]!), hostOf(games[0]!)),
      listen(url(games[0]!), games[0]!.players[0]!.token!),
      listen(url(games[1]!), hostOf(games[1]!)),
    ];
    for (const s of streams) assert.equal(await s.ready, 200);
    assert.equal(await streamStatusFrom(url(games[1]!), "127.0.0.1", games[1]!.players[0]!.token!), 429);
    const fourth = await games[1]!.players[0]!.get(`/games/${games[1]!.id}/events`);
    assert.equal(fourth.status, 429, "the token has none open, its address three");
    assert.equal(fourth.json.error.code, "sse/too-many");
    assert.deepEqual(fourth.json.error.details, { per: "address", limit: 3 });
    assert.match(fourth.json.error.message, /At most 3 event streams from one address.*close one first/);
    assert.equal(
      await streamStatusFrom(url(games[1]!), "127.0.0.2", games[1]!.players[0]!.token!),
      200,
      "another address has its own streams",
    );
    streams[0]!.close();
    const again = await eventually(
      async () => {
        const s = listen(url(games[1]!), games[1]!.players[0]!.token!);
        const status = await s.ready;
        if (status !== 200) s.close();
        return { status, s };
      },
      (r) => r.status === 200,
      10_000,
    );
    again.s.close();
    for (const s of streams.slice(1)) s.close();
  });
});
