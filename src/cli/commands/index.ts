import type { CommandSpec } from "../command.ts";
import check from "./check.ts";
import evalCommand from "./eval.ts";
import explain from "./explain.ts";
import exportTest from "./export-test.ts";
import graph from "./graph.ts";
import init from "./init.ts";
import lint from "./lint.ts";
import lsp from "./lsp.ts";
import map from "./map.ts";
import play from "./play.ts";
import schema from "./schema.ts";
import serve from "./serve.ts";
import test from "./test.ts";

/**
 * Every command of `taleforge`, in the order `--help` lists them: one line
 * per command module (src/cli/commands/<name>.ts). A test checks that this
 * list and the files agree; docs/cli.md's reference is generated from it.
 */
export const COMMANDS: readonly CommandSpec[] = [
  check,
  schema,
  play,
  test,
  exportTest,
  evalCommand,
  explain,
  lint,
  graph,
  map,
  init,
  serve,
  lsp,
];
