// The entry of the built command line (dist/taleforge.js, see scripts/build.ts).

/** The version, written in by scripts/build.ts so that `--version` loads nothing; undefined from the sources. */
declare const TALEFORGE_VERSION: string | undefined;

// `taleforge --version` alone is answered before anything loads (commander and every command's
// options cost more than the answer): editors and scripts ask it first and often. The text is the
// one commander prints for it. `check` and `lint` start from a compiled script (fast-start.ts);
// anything else goes through main.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  const version =
    typeof TALEFORGE_VERSION === "string" ? TALEFORGE_VERSION : (await import("./tool.ts")).TOOL.version;
  process.stdout.write(`${version}\n`);
} else if (!(await fastStart(args[0]))) {
  const { main } = await import("./main.ts");
  await main();
}

/** `check` and `lint` (the commands of check-cli.ts) through the fast start; false for any other command. */
async function fastStart(command: string | undefined): Promise<boolean> {
  if (command !== "check" && command !== "lint") return false;
  const { FAST_SCRIPT, runFastStart } = await import("./fast-start.ts");
  return runFastStart(new URL(FAST_SCRIPT, import.meta.url));
}
