/**
 * Speed work must not change what `check` and `lint` say. This runs two builds of the command
 * line on the same worlds and compares their outputs byte for byte: `check` in every format
 * (stylish, JSON, SARIF) and `lint` as JSON and in its default format (stylish, which ends with the
 * scripts' coverage), each with its exit code and stderr.
 *
 * `npx tsx bench/compare-outputs.ts <old dist folder> [<new dist folder>]`
 *
 * Without a second folder, the current sources are built into node_modules/.cache (as the
 * validate benchmark does). The worlds: every JSON file under examples/ and test/, the shared
 * public worlds (../shared/worlds, when there), and generated ones: the at-cap world, its copy with
 * 150 warnings (pretty, minified, with CRLF line ends), the 2x world (caps exceeded: errors), and
 * a few broken files (syntax error, empty, an array). Exit 0 when every output is the same, 1 when
 * one differs (each difference is listed), 2 on a bad command line.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BIN, buildJavaScript } from "../scripts/build.ts";
import { generateWorld } from "./generate-world.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SHARED_WORLDS = resolve(ROOT, "..", "shared", "worlds");
const FALLBACK_SHARED = "/work/shared/worlds";
const PLANTED_WARNINGS = 150;

/** The command lines run on each world file. */
const RUNS: readonly (readonly string[])[] = [
  ["check", "--format", "json"],
  ["check", "--format", "sarif"],
  ["check", "--format", "stylish"],
  ["lint", "--format", "json"],
  ["lint"],
];

interface Output {
  status: number | null;
  stdout: string;
  stderr: string;
}

async function main(): Promise<number> {
  const [oldDir, newDirArgument] = process.argv.slice(2);
  if (!oldDir) {
    console.error("usage: npx tsx bench/compare-outputs.ts <old dist folder> [<new dist folder>]");
    return 2;
  }
  const oldBin = join(resolve(oldDir), BIN);
  if (!existsSync(oldBin)) {
    console.error(`compare-outputs: ${oldBin} is missing: give a folder built by scripts/build.ts.`);
    return 2;
  }
  let newDir = newDirArgument ? resolve(newDirArgument) : undefined;
  if (!newDir) {
    newDir = join(ROOT, "node_modules", ".cache", "taleforge-compare", "dist");
    await buildJavaScript(newDir);
  }
  const newBin = join(newDir, BIN);
  const worlds = [...repositoryWorlds(), ...generatedWorlds()];
  let outputs = 0;
  const differences: string[] = [];
  for (const world of worlds) {
    for (const args of RUNS) {
      const before = runCommand(oldBin, [...args, world]);
      const after = runCommand(newBin, [...args, world]);
      outputs++;
      for (const part of ["status", "stdout", "stderr"] as const) {
        // The file's path appears in the outputs: the same in both runs.
        if (before[part] !== after[part])
          differences.push(
            `${args.join(" ")} ${relative(ROOT, world)}: ${part} differs${where(before[part], after[part])}`,
          );
      }
    }
  }
  console.log(
    `compare-outputs: ${worlds.length} worlds, ${outputs} command lines (${RUNS.map((r) => r.join(" ")).join("; ")}), ${differences.length} differences.`,
  );
  for (const line of differences) console.log(`  ${line}`);
  return differences.length === 0 ? 0 : 1;
}

function runCommand(bin: string, args: string[]): Output {
  const result = spawnSync(process.execPath, [bin, ...args], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    cwd: ROOT,
  });
  return { status: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

/** Where two outputs first part, for the report. */
function where(a: unknown, b: unknown): string {
  const x = String(a);
  const y = String(b);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return ` at character ${i}: ${JSON.stringify(x.slice(i, i + 60))} vs ${JSON.stringify(y.slice(i, i + 60))}`;
}

function repositoryWorlds(): string[] {
  const shared = existsSync(SHARED_WORLDS) ? SHARED_WORLDS : FALLBACK_SHARED;
  return [join(ROOT, "examples"), join(ROOT, "test"), shared]
    .filter((dir) => existsSync(dir))
    .flatMap((dir) => jsonFiles(dir))
    .sort();
}

function jsonFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === "node_modules") continue;
    if (statSync(path).isDirectory()) out.push(...jsonFiles(path));
    else if (name.endsWith(".json")) out.push(path);
  }
  return out;
}

function generatedWorlds(): string[] {
  const dir = join(ROOT, "node_modules", ".cache", "taleforge-compare", "worlds");
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [];
  const world = generateWorld(1);
  files.push(["world-1x.json", JSON.stringify(world, null, 2)]);
  const warned = structuredClone(world) as { npcs: Record<string, Record<string, unknown>> };
  for (const npc of Object.values(warned.npcs).slice(0, PLANTED_WARNINGS)) npc.mood = "restless";
  const warnedText = JSON.stringify(warned, null, 2);
  files.push(["world-1x-warnings.json", warnedText]);
  files.push(["world-1x-warnings.min.json", JSON.stringify(warned)]);
  files.push(["world-1x-warnings.crlf.json", warnedText.replaceAll("\n", "\r\n")]);
  files.push(["world-2x.json", JSON.stringify(generateWorld(2), null, 2)]);
  files.push(["syntax-error.json", warnedText.slice(0, 5000)]);
  files.push(["trailing-comma.json", '{"format": "V33",}']);
  files.push(["empty.json", ""]);
  files.push(["array.json", "[1, 2]"]);
  return files.map(([name, text]) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  });
}

process.exitCode = await main();
