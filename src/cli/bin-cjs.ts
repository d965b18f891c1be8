// The installed command (package.json `bin`: dist/taleforge.cjs), built by scripts/build.ts as a
// CommonJS script. Node runs a CommonJS main file without starting its ES module loader, which an
// ES module entry pays on every run: 15-25 M instructions (2-3 ms) of `taleforge --version` and of
// every `check` (docs/benchmarks.md, issue 13, eighth pass). It answers `--version`, runs `check`
// and `lint` through the fast start (fast-start.ts, bundled in here), and hands any other command
// line to dist/taleforge.js (src/cli/bin.ts), the ES module entry, which loads each command's
// modules when it runs.

/** The version, written in by scripts/build.ts. */
declare const TALEFORGE_VERSION: string;

const args = process.argv.slice(2);
// The text is the one commander prints for --version (and the one src/cli/bin.ts prints). Nothing
// is loaded before it: fast-start.ts (bundled in here) and its Node modules load only for a command.
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v"))
  process.stdout.write(`${TALEFORGE_VERSION}\n`);
else void command(args[0]);

async function command(name: string | undefined): Promise<void> {
  // require, not import(): import() would start the ES module loader this entry exists to avoid.
  const { pathToFileURL } = require("node:url") as typeof import("node:url");
  const here = pathToFileURL(__filename);
  if (name === "check" || name === "lint") {
    // Bundled: esbuild makes this import() a call of the bundled module, not a module load.
    const { FAST_SCRIPT, runFastStart } = await import("./fast-start.ts");
    if (await runFastStart(new URL(FAST_SCRIPT, here))) return;
  }
  // dist/taleforge.js runs the command line as it finds it in process.argv.
  await import(new URL("taleforge.js", here).href);
}
