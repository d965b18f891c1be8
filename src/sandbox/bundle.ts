import { createHash } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

/**
 * Builds the code the sandbox runs: the engine's `scriptCheck` as one script
 * for the isolates, and the child process as one plain ES module. Starting
 * the child from the bundle instead of through the tsx loader cuts its start
 * (and every restart after a crash) by about a quarter second.
 */

const HERE = dirname(fileURLToPath(import.meta.url));

/** `scriptCheck` of src/engine/conditions/evaluate.ts as a classic script that sets `globalThis.__tfCheck`. */
export function bundleCheck(): string {
  const result = buildSync({
    stdin: {
      contents: 'import { scriptCheck } from "./evaluate.ts"; globalThis.__tfCheck = scriptCheck;',
      resolveDir: join(HERE, "..", "engine", "conditions"),
      loader: "ts",
    },
    bundle: true,
    format: "iife",
    write: false,
    target: "es2022",
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

/** The child process as one ES module (the check bundle inlined; packages external). */
export function childCode(): string {
  const result = buildSync({
    entryPoints: [join(HERE, "child.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    packages: "external",
    define: { __TF_CHECK_BUNDLE__: JSON.stringify(bundleCheck()) },
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

/**
 * Writes the child bundle (check bundle inlined) under node_modules/.cache,
 * where its external packages resolve, and answers its path; null when it
 * cannot be built or written, and the caller falls back to tsx.
 */
export function bundleChild(): string | null {
  try {
    const text = childCode();
    const digest = createHash("sha256").update(text).digest("hex").slice(0, 16);
    const dir = join(HERE, "..", "..", "node_modules", ".cache", "taleforge-sandbox");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `child-${digest}.mjs`);
    // Written aside and renamed, so a concurrent test process never forks a half-written file.
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, text);
    renameSync(partial, file);
    return file;
  } catch {
    return null;
  }
}
