import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { sourceUrls } from "../scripts/build.ts";

/**
 * bench/serve-child.ts built into one plain ES module (packages stay external), so the measured server
 * runs on plain Node as the installed `taleforge serve` does (dist/), not through the tsx loader: tsx
 * keeps esbuild's worker thread and every transformed module's text and source map, some 30 MB that
 * no operator's server carries. Answers the bundle's path, or null (the caller then runs the source
 * through tsx) when it cannot be built.
 */
export async function bundleServeChild(root: string): Promise<string | null> {
  // Under node_modules, where the external packages resolve from.
  const dir = join(root, "node_modules", ".cache", "taleforge-bench");
  try {
    const result = await build({
      entryPoints: [fileURLToPath(new URL("./serve-child.ts", import.meta.url))],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      write: false,
      packages: "external",
      // Modules find their files (the example world, the web app, the sandbox child) from import.meta.url.
      plugins: [sourceUrls(dir)],
      banner: {
        js: 'import { createRequire as __tfRequire } from "node:module";\nconst require = __tfRequire(import.meta.url);',
      },
      logLevel: "silent",
    });
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "serve-child.mjs");
    writeFileSync(file, result.outputFiles[0]?.text ?? "");
    return file;
  } catch {
    return null;
  }
}
