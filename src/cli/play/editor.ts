import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CliIo } from "../io.ts";
import type { LineSource } from "./lines.ts";

/** The longest text read back from the editor (the game keeps at most 20,000 characters of it). */
const MAX_READ = 100_000;

/**
 * /alter without text: the narration in the player's $VISUAL or $EDITOR, as
 * git commit does. The text as saved, or why there is no editor to open (not
 * at a terminal, none set, it failed).
 */
export async function editText(
  ctx: { io: CliIo; lines: LineSource },
  text: string,
): Promise<{ text: string } | { problem: string }> {
  const editor = (ctx.io.env.VISUAL || ctx.io.env.EDITOR || "").trim();
  if (!ctx.lines.interactive) return { problem: "An editor opens only at a terminal." };
  if (editor === "") return { problem: "No editor is set ($EDITOR)." };
  const dir = mkdtempSync(join(tmpdir(), "taleforge-alter-"));
  const file = join(dir, "narration.txt");
  try {
    writeFileSync(file, `${text}\n`, { mode: 0o600 });
    // Through the shell: $EDITOR may carry arguments ("code --wait"), as git allows.
    const run = spawnSync(`${editor} "$TALEFORGE_ALTER_FILE"`, {
      shell: true,
      stdio: "inherit",
      env: { ...ctx.io.env, TALEFORGE_ALTER_FILE: file },
    });
    if (run.error || run.status !== 0)
      return { problem: `The editor (${editor}) did not finish well: the narration is unchanged.` };
    const edited = readFileSync(file, "utf8");
    if (edited.length > MAX_READ) return { problem: `The text is longer than ${MAX_READ} characters.` };
    return { text: edited.replace(/\n$/, "") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
