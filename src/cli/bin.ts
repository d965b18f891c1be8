// The entry of the built command line (dist/taleforge.js, see scripts/build.ts).
import { main } from "./main.ts";

await main();
