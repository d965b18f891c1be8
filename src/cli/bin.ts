// The entry of the built command line (dist/taleforge.js, see scripts/build.ts).
import { TOOL } from "./tool.ts";

// `taleforge --version` alone is answered before the command line loads (commander and every
// command's options cost more than the answer): editors and scripts ask it first and often. The
// text is the one commander prints for it; anything else goes through main.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  process.stdout.write(`${TOOL.version}\n`);
} else {
  const { main } = await import("./main.ts");
  await main();
}
