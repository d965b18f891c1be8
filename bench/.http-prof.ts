import { readFileSync } from "node:fs";
const [file, bundle] = process.argv.slice(2);
type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
const profile = JSON.parse(readFileSync(file!, "utf8")) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const starts: { line: number; source: string }[] = [];
readFileSync(bundle!, "utf8").split("\n").forEach((text, line) => {
  const m = /^\/\/ ((?:src|bench|node_modules)\/\S+)$/.exec(text);
  if (m) starts.push({ line, source: m[1]! });
});
const src = (f: Node["callFrame"]) => {
  if (!f.url.endsWith("serve-child.mjs")) return f.url;
  let found = "";
  for (const s of starts) if (s.line <= f.lineNumber) found = s.source; else break;
  return found;
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const http = /node:_http|node:http|node:net|node:internal\/(http|stream|streams)|node:stream|node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|fastify-plugin|toad-cache|process-warning|helmet)\/|src\/server\/(app|route|routes\/|auth|errors|rate-keys|views|web)/;
const other = /src\/server\/store\/|kysely|better-sqlite3|node_modules\/pg|src\/(engine|host|sandbox|ai|world)|runner\.ts|pino|sonic-boom/;
const selfBy = new Map<string, number>();
const incl = new Map<string, number>();
let total = 0, httpTotal = 0;
for (const [id, us] of self) {
  const n = byId.get(id)!;
  const nm = n.callFrame.functionName;
  if (nm === "(idle)" || nm === "(root)" || nm === "(program)" || nm === "(garbage collector)") { total += nm === "(idle)" ? 0 : us; continue; }
  total += us;
  // stack
  const stack: Node[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
  const isOther = stack.some((s) => other.test(src(s.callFrame)));
  const isHttp = stack.some((s) => http.test(src(s.callFrame)));
  if (isOther || !isHttp) continue;
  httpTotal += us;
  const key = `${nm || "(anon)"} ${src(n.callFrame)}:${n.callFrame.lineNumber}`;
  selfBy.set(key, (selfBy.get(key) ?? 0) + us);
  const seen = new Set<string>();
  for (const s of stack) {
    const k = `${s.callFrame.functionName || "(anon)"} ${src(s.callFrame)}`;
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + us);
  }
}
const turns = Number(process.argv[4] ?? 800);
console.log(`total non-idle ${(total / 1000 / turns).toFixed(3)} ms/turn; http-only stacks ${(httpTotal / 1000 / turns).toFixed(3)} ms/turn`);
console.log("-- self");
for (const [k, v] of [...selfBy].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log((v / 1000 / turns).toFixed(4), k);
console.log("-- inclusive");
for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 50)) console.log((v / 1000 / turns).toFixed(4), k);
