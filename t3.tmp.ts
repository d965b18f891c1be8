import ivm from "isolated-vm";
import { bundleCheck } from "./src/sandbox/bundle.ts";
import { PRELUDE } from "./src/sandbox/prelude.ts";
const iso = new ivm.Isolate({ memoryLimit: 32 });
const ctx = iso.createContextSync();
ctx.global.setSync("__tfLog", new ivm.Callback(() => true));
iso.compileScriptSync(bundleCheck()).runSync(ctx);
const driver = iso.compileScriptSync(PRELUDE).runSync(ctx, { reference: true }) as ivm.Reference;
const SMALL = process.argv[2] === "empty" ? "1" : ["storage.count = (storage.count ?? 0) + 1;",
  'const hurt = check({ type: "player-resource", resource: "health", operator: "lessThan", value: 10 });',
  'if (hurt && check({ type: "party-location" }) === "Old Mill")',
  '  effects.push({ type: "write-number", key: "seen", operator: "add", value: 1 });'].join("\n");
const snap = { tick: 7, position: { realm: "Vale", region: "Northfield", location: "Old Mill", area: "Millyard" }, characters: [{ name: "Wren", level: 3, resources: { health: 8 }, traits: ["Brave"] }], known: {}, questsCompleted: [], questStatus: {}, eventStatus: {}, storyText: "x", actions: [] };
const N = 300; const t: Record<string, number> = { input: 0, run: 0, read: 0, reset: 0 };
let full = true;
for (let i = 0; i < N; i++) {
  let a = performance.now();
  const input = JSON.stringify({ snapshot: snap, storage: { full, set: full ? { count: "0" } : {}, del: [], order: full ? ["count"] : null }, effects: [], info: { engineVersion: 33, semanticVersion: "33" }, seed: [1, 2, 3, 4], now: 0, logOpen: true });
  full = false;
  let b = performance.now(); t.input += b - a;
  const r = driver.applySync(undefined, [0, input, i === 0 ? "{}" : undefined, SMALL], { timeout: 500 }); a = performance.now(); t.run += a - b;
  const rb = driver.applySync(undefined, [1], { timeout: 500 }); b = performance.now(); t.read += b - a;
  const dirty = driver.applySync(undefined, [2], { timeout: 500 }); a = performance.now(); t.reset += a - b;
  if (i === N - 1) console.log(r, JSON.stringify(rb), dirty);
}
for (const k in t) console.log(k, (t[k] / N).toFixed(3));
