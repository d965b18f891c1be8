/**
 * The package's `prepare` script: builds dist/ (scripts/build.ts) unless dist/ was already built from
 * these very sources by this Node.
 *
 * Why not always build: `npx taleforge …` in a clone makes npm link the clone into its npx cache and
 * run `prepare` again, once per clone, before the command. A full build takes 20 s to minutes, so a
 * newcomer's first `npx taleforge serve` waited that long for a dist/ that `npm ci` had just built.
 *
 * The stamp is a hash of every file the build reads (src/, web/, scripts/, examples/, package files,
 * tsconfigs) plus Node's version and architecture (the V8 code cache in dist/ belongs to one Node).
 * Any change of those rebuilds; `npm run build` always builds. Plain JavaScript, so that the check
 * costs milliseconds and needs no tsx.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const STAMP = "build-stamp";
const FOLDERS = ["src", "web", "scripts", "examples"];
const FILES = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json"];
const SKIPPED = new Set(["node_modules", "dist", ".cache"]);

/** The hash of what the build reads: file paths and contents in a fixed order, and this Node. */
export function sourceStamp(root = ROOT) {
  const hash = createHash("sha256").update(`${process.version} ${process.arch}\n`);
  const add = (file) => {
    hash.update(`${relative(root, file)}\n`);
    hash.update(readFileSync(file));
    hash.update("\n");
  };
  const walk = (folder) => {
    const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      if (SKIPPED.has(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) add(path);
    }
  };
  for (const folder of FOLDERS) if (existsSync(join(root, folder))) walk(join(root, folder));
  for (const file of FILES) if (existsSync(join(root, file))) add(join(root, file));
  return hash.digest("hex");
}

/** Records that `outdir` holds a complete build of the current sources (called by scripts/build.ts). */
export function writeStamp(outdir) {
  writeFileSync(join(outdir, STAMP), `${sourceStamp()}\n`);
}

/** Whether dist/ holds a complete build of the current sources, by this Node. */
export function upToDate(outdir = join(ROOT, "dist")) {
  try {
    return readFileSync(join(outdir, STAMP), "utf8").trim() === sourceStamp();
  } catch {
    return false;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (upToDate()) {
    process.stdout.write("dist/ is up to date with the sources (npm run build rebuilds it anyway).\n");
  } else {
    const tsx = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
    const result = spawnSync(process.execPath, [tsx, join(ROOT, "scripts", "build.ts")], {
      stdio: "inherit",
    });
    process.exitCode = result.status ?? 1;
  }
}
