import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ROOT } from "../cli/helpers.ts";

/**
 * The package as people install it: `npm pack` (which runs `prepare`, so the
 * dist/ it holds is built from the sources under test, never a stale one),
 * then an offline install of the tarball into a scratch project, which runs a
 * session from plain JavaScript and from TypeScript and the installed
 * `taleforge` command. This is the one test that runs the built code; every
 * other test runs the sources.
 */

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
let work: string;
let scratch: string;

before(() => {
  work = mkdtempSync(join(ROOT, "node_modules", ".cache", "taleforge-pack-"));
  execFileSync(NPM, ["pack", "--silent", "--pack-destination", work], { cwd: ROOT, stdio: "pipe" });
  const tarball = join(work, readdirSync(work).find((name) => name.endsWith(".tgz"))!);
  scratch = join(work, "scratch");
  mkdirSync(scratch);
  writeScratchProject(tarball);
  // Offline, from the npm cache. Install scripts are skipped: isolated-vm would build its native
  // module, which needs the network; the sessions below run a world's scripts without a sandbox.
  execFileSync(NPM, ["ci", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"], {
    cwd: scratch,
    stdio: "pipe",
  });
});

after(() => rmSync(work, { recursive: true, force: true }));

/**
 * package.json and a lockfile pinning every dependency at the version this
 * repository's lockfile has, so that `npm ci --offline` finds each tarball in
 * the cache without asking the registry about versions.
 */
function writeScratchProject(tarball: string): void {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dev?: boolean; link?: boolean }>;
  };
  const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, unknown>;
  const packages: Record<string, unknown> = {
    "": { name: "scratch", dependencies: { taleforge: `file:${tarball}` } },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path !== "" && !entry.dev && !entry.link) packages[path] = entry;
  }
  packages["node_modules/taleforge"] = {
    version: own.version,
    resolved: `file:${tarball}`,
    dependencies: own.dependencies,
    bin: own.bin,
  };
  // The lockfile's versions follow this repository's npm overrides (cookie 1.x under Fastify's
  // light-my-request, for Node 20): the scratch project carries the same overrides, as an
  // application that wants them must (npm applies only the root project's overrides).
  const manifest = {
    name: "scratch",
    private: true,
    type: "module",
    dependencies: { taleforge: `file:${tarball}` },
    ...(own.overrides !== undefined ? { overrides: own.overrides } : {}),
  };
  writeFileSync(join(scratch, "package.json"), JSON.stringify(manifest, null, 2));
  writeFileSync(
    join(scratch, "package-lock.json"),
    JSON.stringify({ name: "scratch", lockfileVersion: 3, requires: true, packages }, null, 2),
  );
}

/** One turn of the example world with the offline narrator, its trace formatted as the CLI does. */
const SESSION = `
import { readFileSync } from "node:fs";
import { createOfflineProvider, createSession, formatTrace, parseWorld, validateWorld } from "taleforge";

const file = "node_modules/taleforge/examples/harbor.world.json";
const checked = validateWorld(parseWorld(readFileSync(file, "utf8"), "harbor.world.json"));
const world = checked.world;
if (!world) throw new Error("the example world does not check");
const session = await createSession(world, { ai: createOfflineProvider(world), seed: 7, players: [{ name: "Aria" }] });
const result = await session.turn({ actions: [{ player: "Aria", text: "walk to the Gutted Eel" }] });
const trace = formatTrace(result, { color: false });
console.log(JSON.stringify({ errors: checked.errorCount, tick: result.tick, story: result.story.length > 0, trace: trace.length > 0 }));
`;

function node(file: string) {
  return spawnSync(process.execPath, [file], { cwd: scratch, encoding: "utf8" });
}

const EXPECTED = { errors: 0, tick: 1, story: true, trace: true };

test("plain JavaScript: a session from the installed package", () => {
  writeFileSync(join(scratch, "session.mjs"), SESSION);
  const run = node("session.mjs");
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), EXPECTED);
});

test("TypeScript: the same session type-checks against the shipped declarations and runs", () => {
  const typed = SESSION.replace(
    "const trace = formatTrace",
    "const tick: number = result.tick;\nconst trace: string = formatTrace",
  );
  writeFileSync(join(scratch, "session.ts"), typed);
  writeFileSync(
    join(scratch, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        skipLibCheck: true,
        typeRoots: [join(ROOT, "node_modules", "@types")],
        types: ["node"],
        outDir: "out",
      },
      files: ["session.ts"],
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", scratch],
    {
      encoding: "utf8",
    },
  );
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  const run = node(join("out", "session.js"));
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), EXPECTED);
});

test("TypeScript: a wrong use of the API is a type error (the declarations are real, not any)", () => {
  writeFileSync(
    join(scratch, "wrong.ts"),
    'import { validateWorld } from "taleforge";\nconst n: number = validateWorld;\nexport { n };\n',
  );
  writeFileSync(
    join(scratch, "tsconfig.wrong.json"),
    JSON.stringify({
      compilerOptions: {
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        types: [],
      },
      files: ["wrong.ts"],
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(scratch, "tsconfig.wrong.json")],
    { encoding: "utf8" },
  );
  assert.notEqual(tsc.status, 0);
  assert.match(tsc.stdout, /wrong\.ts.*TS2322/);
});

test("the installed taleforge command checks a world, from the built JavaScript", () => {
  const bin = join(scratch, "node_modules", ".bin", "taleforge");
  const run = spawnSync(
    bin,
    ["check", "--format", "json", join(scratch, "node_modules/taleforge/examples/harbor.world.json")],
    {
      cwd: scratch,
      encoding: "utf8",
    },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).errorCount, 0);
  assert.equal(
    realpathSync(bin),
    join(realpathSync(scratch), "node_modules", "taleforge", "dist", "taleforge.cjs"),
    "the command runs the built JavaScript, not the TypeScript sources",
  );
});

test("the package holds the built browser app that `taleforge serve` serves at /", () => {
  const web = join(scratch, "node_modules", "taleforge", "dist", "web");
  const index = readFileSync(join(web, "index.html"), "utf8");
  const assets = [...index.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
  assert.ok(assets.some((a) => a.endsWith(".js")) && assets.some((a) => a.endsWith(".css")), index);
  for (const asset of assets) assert.ok(readFileSync(join(web, asset)).length > 0, asset);
});
