import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, listen, WORLD_TEXT } from "./harness.ts";

/**
 * What the liveness tests share: real server processes (child-server.ts) on one store, started,
 * killed (SIGKILL) and stopped (SIGTERM) at will, and parties of scripted players.
 */

const CHILD = fileURLToPath(new URL("./child-server.ts", import.meta.url));

export interface Proc {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  /** kill -9, resolving once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful stop), resolving once it has exited. */
  stop(): Promise<void>;
}

/** A server process on `where`; env: TALEFORGE_CHILD_* options (see child-server.ts). */
export function startProc(where: object, env: Record<string, string> = {}): Promise<Proc> {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD], {
    env: { ...process.env, TALEFORGE_CHILD_STORE: JSON.stringify(where), ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line)
        resolve({
          url: line.trim(),
          pid: child.pid!,
          child,
          exited,
          kill: () => signal("SIGKILL"),
          stop: () => signal("SIGTERM"),
        });
    });
    child.once("exit", (code, sig) =>
      reject(new Error(`the server process exited (${code ?? sig}) before listening`)),
    );
  });
}

export interface Party {
  id: string;
  host: Client;
  /** The players' tokens, in join order. */
  tokens: string[];
  names: string[];
}

/**
 * Uploads the example world (once per store) and makes a started game with `players` players;
 * `settings`: more of the game's settings (POST /games), e.g. `turnTimeoutSeconds`.
 */
export async function startParty(
  url: string,
  players: number,
  seed: number,
  settings: Record<string, unknown> = {},
): Promise<Party> {
  const anyone = new Client(url);
  const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
  const created = (await anyone.post("/games", { world: hash, seed, ...settings })).json;
  const host = new Client(url, created.hostToken);
  const names = ["Ann", "Bo", "Cy", "Di"].slice(0, players);
  const tokens: string[] = [];
  for (const name of names)
    tokens.push(
      (await anyone.post("/games/join", { invite: created.invite, character: { name } })).json.token,
    );
  const started = await host.post(`/games/${created.id}/start`);
  if (started.status !== 200) throw new Error(`start: ${started.status} ${started.text}`);
  return { id: created.id, host, tokens, names };
}

/**
 * Ann and Bo (seed 31) walk to the Gutted Eel in turn 1, where Mara offers "The Keeper's Debt": the
 * party the quest-answer tests start from, its players' clients in join order.
 */
export async function partyOfferedTheDebt(
  url: string,
  settings: Record<string, unknown> = {},
): Promise<Party & { players: Client[] }> {
  const party = await startParty(url, 2, 31, settings);
  const players = party.tokens.map((token) => new Client(url, token));
  const stream = listen(`${url}/games/${party.id}/events`, party.tokens[0]!);
  for (const [i, p] of players.entries())
    await p.post(`/games/${party.id}/actions`, { text: "walk to the Gutted Eel", idempotencyKey: `k${i}` });
  await stream.until((events) => events.some((e) => e.event === "turn" && e.data.tick === 1));
  stream.close();
  return { ...party, players };
}

/** The action player `p` sends for tick `tick`: unique, so its turn row shows it applied once. */
export function actionText(p: number, tick: number): string {
  return (
    ["walk to the Gutted Eel", "look around", "listen to the gulls", "wait by the pier"][p % 4]! +
    ` (turn ${tick})`
  );
}

/** The idempotency key of player `p`'s action for `tick`: a resend of it is the same action. */
export function actionKey(p: number, tick: number): string {
  return `p${p}-t${tick}`;
}
