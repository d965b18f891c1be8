import { readFileSync } from "node:fs";

/**
 * Where a server's main thread spends its CPU over the measured turns: a CPU profile of the
 * process (serve-child.ts's profiler) cut into the parts issue 38 asks about. Each sample goes to
 * the first part found walking from the running function up its callers, HTTP (the framework and
 * Node's HTTP and stream code) only when no other part is on the stack, since every handler runs
 * under it. The bundled server's functions are mapped back to their source files by esbuild's
 * `// src/...` comments.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export const PARTS = [
  "step (engine, sandbox, narrator, world)",
  "store (Kysely, SQLite/pg, save and restore)",
  "SSE fan-out (event streams)",
  "JSON (parse, stringify, schemas)",
  "HTTP (Node's http, Fastify, routes, auth)",
  "logging (pino)",
  "garbage collector",
  "V8 and Node outside JavaScript",
  "other",
] as const;
export type Part = (typeof PARTS)[number];

/** Per part, milliseconds of the main thread's sampled time, and the busiest functions of "other". */
export interface Breakdown {
  ms: Map<Part, number>;
  others: [string, number][];
}

export function breakdownOf(profileFile: string, bundleFile: string | null): Breakdown {
  const profile = JSON.parse(readFileSync(profileFile, "utf8")) as Profile;
  const sources = bundleFile ? bundleSources(bundleFile) : null;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const ms = new Map<Part, number>();
  const others = new Map<string, number>();
  for (const [id, micros] of self) {
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    // (idle): the loop waiting; `dispatch` with no script: the inspector's own messages, the profiler
    // building its profile at Profiler.stop (the measurement, not the server).
    if (name === "(idle)" || name === "(root)" || (name === "dispatch" && node.callFrame.url === ""))
      continue;
    let part: Part | undefined;
    if (name === "(garbage collector)") part = "garbage collector";
    else if (name === "(program)") part = "V8 and Node outside JavaScript";
    else {
      let http = false;
      for (let at: number | undefined = id; at !== undefined && part === undefined; at = parent.get(at)) {
        const frame = byId.get(at)!.callFrame;
        const found = partOf(sourceOf(frame, sources), frame.functionName);
        if (found === "HTTP (Node's http, Fastify, routes, auth)") http = true;
        else if (found) part = found;
      }
      part ??= http ? "HTTP (Node's http, Fastify, routes, auth)" : "other";
    }
    ms.set(part, (ms.get(part) ?? 0) + micros / 1000);
    if (part === "other") {
      const key = `${name || "(anonymous)"} ${sourceOf(node.callFrame, sources)}`;
      others.set(key, (others.get(key) ?? 0) + micros / 1000);
    }
  }
  return { ms, others: [...others].sort((a, b) => b[1] - a[1]).slice(0, 5) };
}

/** The file a frame's function comes from: its source file inside the bundle, else its URL. */
function sourceOf(frame: ProfileNode["callFrame"], sources: ((line: number) => string) | null): string {
  if (sources && frame.url.endsWith("serve-child.mjs")) return sources(frame.lineNumber);
  return frame.url;
}

function partOf(source: string, functionName: string): Part | undefined {
  if (source === "" && (functionName === "stringify" || functionName === "parse"))
    return "JSON (parse, stringify, schemas)";
  if (/src\/server\/routes\/events\.ts|src\/server\/store\/bus\.ts/.test(source))
    return "SSE fan-out (event streams)";
  if (/src\/server\/store\/|node_modules\/(kysely|better-sqlite3|pg|pg-protocol|pg-pool)\//.test(source))
    return "store (Kysely, SQLite/pg, save and restore)";
  if (
    /src\/(engine|host|sandbox|ai|world|narrator|offline)\/|src\/server\/runner\.ts|node_modules\/isolated-vm\//.test(
      source,
    )
  )
    return "step (engine, sandbox, narrator, world)";
  if (
    /node_modules\/(pino|thread-stream|sonic-boom|pino-std-serializers)\/|src\/server\/(logger|log-format)\.ts/.test(
      source,
    )
  )
    return "logging (pino)";
  if (
    /node_modules\/(fast-json-stringify|secure-json-parse|zod|ajv|fast-uri)\/|src\/server\/schemas\.ts/.test(
      source,
    )
  )
    return "JSON (parse, stringify, schemas)";
  if (
    /node:_http|node:http|node:net|node:internal\/(http|stream|streams)|node:stream|node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|fastify-plugin|toad-cache|process-warning)\/|src\/server\/(app|route|routes\/|auth|errors|rate-keys|views|web)/.test(
      source,
    )
  )
    return "HTTP (Node's http, Fastify, routes, auth)";
  return undefined;
}

/** Line (0-based, as profiles give it) of the bundle to the source file esbuild put there. */
function bundleSources(bundleFile: string): (line: number) => string {
  const starts: { line: number; source: string }[] = [];
  readFileSync(bundleFile, "utf8")
    .split("\n")
    .forEach((text, line) => {
      const match = /^\/\/ ((?:src|bench|node_modules)\/\S+)$/.exec(text);
      if (match) starts.push({ line, source: match[1]! });
    });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = "";
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]!.line <= line) {
        found = starts[mid]!.source;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}
