#!/usr/bin/env node
// The development launcher: runs the TypeScript sources directly through tsx, as the tests do. The
// installed `taleforge` command (package.json `bin`) is the JavaScript built into dist/ by `prepare`.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
await main();
