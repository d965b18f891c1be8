import { type CommandSpec, flat } from "../src/cli/command.ts";

const SYNOPSIS = [
  "<!-- synopsis:start (generated from src/cli/commands/ by scripts/generate-docs.ts) -->",
  "<!-- synopsis:end -->",
] as const;
const REFERENCE = [
  "<!-- reference:start (generated from src/cli/commands/ by scripts/generate-docs.ts) -->",
  "<!-- reference:end -->",
] as const;

/** `taleforge <name> [options] <arguments>`. */
export function usageOf(spec: CommandSpec): string {
  return [
    "taleforge",
    spec.name,
    ...(spec.options.length > 0 ? ["[options]"] : []),
    ...spec.arguments.map((a) => a.name),
  ].join(" ");
}

/**
 * docs/cli.md with its two generated blocks rewritten from the command
 * modules: the synopsis at the top and the reference at the end. The prose
 * between them is written by hand; a block's markers must be in the file.
 */
export function renderCliDoc(current: string, commands: readonly CommandSpec[]): string {
  const width = Math.max(...commands.map((spec) => usageOf(spec).length)) + 2;
  const synopsis = [
    "```",
    ...commands.map((spec) => `${usageOf(spec).padEnd(width)}${spec.summary}`),
    "taleforge --version | --help",
    "taleforge help <command>",
    "```",
  ];
  const reference = [
    "## Command reference",
    "",
    "Every command's arguments, options, exit codes and examples, as `--help` shows them.",
  ];
  for (const spec of commands) {
    reference.push("", `### \`${usageOf(spec)}\``, "", spec.summary, "");
    if (spec.arguments.length > 0) {
      reference.push("| Argument | Meaning | Default |", "| --- | --- | --- |");
      for (const argument of spec.arguments)
        reference.push(
          `| \`${argument.name}\` | ${cell(argument.description)} | ${argument.default === undefined ? "" : `\`${argument.default}\``} |`,
        );
      reference.push("");
    }
    if (spec.options.length > 0) {
      reference.push("| Option | Meaning | Default |", "| --- | --- | --- |");
      for (const option of spec.options) {
        const notes = [option.required ? "required" : "", option.repeatable ? "repeatable" : ""].filter(
          Boolean,
        );
        const meaning = `${cell(option.description)}${notes.length > 0 ? ` (${notes.join(", ")})` : ""}`;
        reference.push(
          `| \`${option.flags}\` | ${meaning} | ${option.default === undefined ? "" : `\`${option.default}\``} |`,
        );
      }
      reference.push("");
    }
    reference.push("Exit codes:", "");
    for (const { code, meaning } of spec.exitCodes) reference.push(`- ${code}: ${flat(meaning)}`);
    reference.push("", "```sh", ...spec.examples, "```");
  }
  return replaceBlock(replaceBlock(current, SYNOPSIS, synopsis), REFERENCE, reference);
}

function replaceBlock(
  text: string,
  [start, end]: readonly [string, string],
  lines: readonly string[],
): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/cli.md has lost its markers ${start} ... ${end}`);
  return `${text.slice(0, from + start.length)}\n${lines.join("\n")}\n${text.slice(to)}`;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|");
}
