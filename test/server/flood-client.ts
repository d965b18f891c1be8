/**
 * The hostile clients of test/server/flood.test.ts, in a process of their own (so their work does not
 * weigh on the server's event loop, which the test measures). TALEFORGE_FLOOD (JSON): the server's
 * `url`, the `operator` token, the heavy world's `file`, and the looping `games` (id, host and player
 * tokens), all seen from `address`. On stdin, "on" starts the flood and "off" stops it; on stdout,
 * "flooding" once a looping turn was asked for and an upload answered since "on", and "quiet" once
 * every upload sent has been answered and every looping turn asked for has run (or its game paused).
 */

import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

interface Looping {
  id: string;
  hostToken: string;
  playerToken: string;
}
const setup = JSON.parse(process.env.TALEFORGE_FLOOD ?? "{}") as {
  url: string;
  operator: string;
  file: string;
  address: string;
  games: Looping[];
};
const heavy = readFileSync(setup.file);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// biome-ignore lint/suspicious/noExplicitAny: the answers are read field by field.
async function call(method: string, path: string, token: string, body?: unknown): Promise<any> {
  const response = await fetch(`${setup.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      "x-forwarded-for": setup.address,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 500) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return { status: response.status, json: JSON.parse(text) };
}

let flooding = false;
let turns = 0; // Looping turns asked for (202).
let uploads = 0; // Uploads answered (422 once checked, or 503 when the pool is full).

/** Keeps a turn of the game asked for (resumed at once when paused); once stopped, waits for it to run. */
async function loop(game: Looping): Promise<void> {
  const read = () => call("GET", `/games/${game.id}`, game.hostToken);
  while (flooding) {
    const now = (await read()).json;
    if (now.status === "paused") await call("POST", `/games/${game.id}/resume`, game.hostToken);
    else if (!now.players[0].submitted) {
      const sent = await call("POST", `/games/${game.id}/actions`, game.playerToken, {
        text: "look around",
        idempotencyKey: `t${now.tick + 1}`,
      });
      if (sent.status === 202) turns++;
    }
    await pause(250);
  }
  for (;;) {
    const now = (await read()).json;
    if (now.status === "paused" || !now.players[0].submitted) return;
    await pause(100);
  }
}

/** Sends the heavy world again as soon as it is answered. */
async function upload(): Promise<void> {
  while (flooding) {
    const response = await fetch(`${setup.url}/worlds`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${setup.operator}`,
        "x-forwarded-for": setup.address,
        "content-type": "application/json",
      },
      body: heavy,
    });
    await response.arrayBuffer();
    if (response.status !== 422 && response.status !== 503)
      throw new Error(`an upload answered ${response.status}, not 422 or 503`);
    uploads++;
  }
}

let flow: Promise<unknown> = Promise.resolve();
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line === "on" && !flooding) {
    flooding = true;
    const [turnsBefore, uploadsBefore] = [turns, uploads];
    flow = Promise.all([...setup.games.map(loop), ...Array.from({ length: 4 }, upload)]);
    flow.catch((error) => {
      process.stderr.write(`flood client: ${error}\n`);
      process.exit(1);
    });
    while (turns === turnsBefore || uploads === uploadsBefore) await pause(20);
    process.stdout.write(`flooding ${turns - turnsBefore} ${uploads - uploadsBefore}\n`);
  } else if (line === "off") {
    flooding = false;
    await flow;
    process.stdout.write(`quiet ${turns} ${uploads}\n`);
  }
}
