import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { STORE_NAME, suiteServer } from "./harness.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DOC = readFileSync(join(ROOT, "docs", "server.md"), "utf8");
const tools = ["bash", "curl", "jq"].filter((t) => spawnSync("sh", ["-c", `command -v ${t}`]).status !== 0);

interface Command {
  text: string;
  /** The answer the doc shows after it (`# => {…}`), if any. */
  shown?: string;
}

/** docs/server.md's curl walkthrough ("The API by example"): its commands, as a reader pastes them. */
export function walkthrough(doc: string): Command[] {
  const section = doc.split("## The API by example (curl)")[1] ?? "";
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  const commands: Command[] = [];
  let pending = "";
  for (const line of block.split("\n")) {
    if (pending === "" && /^\s*#/.test(line)) {
      const shown = /^# => (\{.*)$/.exec(line)?.[1];
      const last = commands.at(-1);
      if (shown && last && last.shown === undefined) last.shown = shown;
      continue;
    }
    if (pending === "" && line.trim() === "") continue;
    pending += (pending ? "\n" : "") + line;
    if (!/[\\|]\s*$/.test(line)) {
      commands.push({ text: pending });
      pending = "";
    }
  }
  return commands;
}

/** The first JSON value of `text` (a doc line may go on after it). */
function leadingJson(text: string): unknown {
  for (let end = text.length; end > 0; end--) {
    if (text[end - 1] !== "}") continue;
    try {
      return JSON.parse(text.slice(0, end));
    } catch {
      // A shorter prefix, then.
    }
  }
  throw new Error(`no JSON at the start of: ${text}`);
}

/**
 * The doc's answer against the real one: the same keys, and the same values,
 * where a string with "…" in the doc stands for any string that starts with
 * what comes before the "…" (`"…"` an id, `"tfh_…"` a host token, the start of a story). Returns the paths that differ.
 */
function differences(shown: unknown, real: unknown, path = "$"): string[] {
  if (typeof shown === "string" && shown.includes("…"))
    return typeof real === "string" && real.startsWith(shown.split("…")[0]!) ? [] : [path];
  if (Array.isArray(shown)) {
    if (!Array.isArray(real) || real.length !== shown.length) return [path];
    return shown.flatMap((s, i) => differences(s, real[i], `${path}[${i}]`));
  }
  if (shown !== null && typeof shown === "object") {
    if (real === null || typeof real !== "object" || Array.isArray(real)) return [path];
    const keys = new Set([...Object.keys(shown), ...Object.keys(real)]);
    return [...keys].flatMap((k) =>
      differences(
        (shown as Record<string, unknown>)[k],
        (real as Record<string, unknown>)[k],
        `${path}.${k}`,
      ),
    );
  }
  return shown === real ? [] : [path];
}

/**
 * Runs docs/server.md's curl walkthrough, command by command as a reader
 * pastes it, against a real server (the live-events command in the
 * background, as "in another terminal"), and checks that every command works
 * and that every answer the doc shows (`# => …`) is the real one, ids aside.
 */
describe(`docs/server.md: the curl walkthrough works as written (${STORE_NAME})`, {
  skip: tools.length > 0 ? `needs ${tools.join(", ")} on PATH` : false,
}, () => {
  let folder: string;
  const running = suiteServer();
  before(async () => {
    folder = mkdtempSync(join(tmpdir(), "taleforge-walkthrough-"));
    symlinkSync(join(ROOT, "examples"), join(folder, "examples"));
  });
  after(async () => {
    rmSync(folder, { recursive: true, force: true });
  });

  it("finds the walkthrough's commands and the answers it shows", () => {
    const commands = walkthrough(DOC);
    assert.ok(commands.length > 25, `${commands.length} commands`);
    assert.ok(commands.filter((c) => c.shown !== undefined).length >= 6);
    assert.ok(
      commands.some((c) => c.text.startsWith("curl -N ")),
      "the live events command",
    );
  });

  it("runs every command as written; the answers shown are the real ones", { timeout: 180_000 }, async () => {
    const commands = walkthrough(DOC);
    // Every curl bounded: a command that hangs fails the test instead of holding it.
    const script = [
      "set -u",
      'curl() { command curl --max-time 60 "$@"; }',
      "turns() { grep -c '^event: turn$' events.txt 2>/dev/null || true; }",
    ];
    commands.forEach((command, i) => {
      let text = command.text;
      if (text.startsWith("S=http://127.0.0.1:8080")) text = `S=${running.url}`;
      if (text.startsWith("curl -N ")) {
        // "In another terminal": in the background, its events kept in events.txt.
        script.push(`${text} > events.txt 2>/dev/null & EVENTS=$!`, "sleep 0.5");
        return;
      }
      // A step of the game may still be running when a script (not a person) sends the next command:
      // `game/busy` says "retry when it ends", so the script does.
      script.push(
        `echo "@@ ${i}"`,
        "before=$(turns)",
        "for try in $(seq 1 20); do",
        `{ ${text}\n} > out.txt 2>err.txt; code=$?`,
        `grep -q '"game/busy"' out.txt || break; sleep 0.3`,
        "done",
        `cat out.txt; [ $code -eq 0 ] || { echo "exit $code: $(cat err.txt)"; }`,
        "echo",
      );
      // A forced turn runs after its answer: wait for its `turn` event before the next command.
      if (/\/turn$/.test(text))
        script.push('for w in $(seq 1 300); do [ "$(turns)" -gt "$before" ] && break; sleep 0.1; done');
    });
    script.push("sleep 0.5", "kill $EVENTS", 'echo "@@ events"', "cat events.txt");
    writeFileSync(join(folder, "walkthrough.sh"), script.join("\n"));
    // Not spawnSync: the server answers from this process's event loop.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn("bash", ["walkthrough.sh"], { cwd: folder, timeout: 170_000 });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => {
        stdout += c.toString();
      });
      child.stderr.on("data", (c: Buffer) => {
        stderr += c.toString();
      });
      child.on("close", (status) => resolve({ status, stdout, stderr }));
    });
    assert.equal(run.status, 0, run.stderr);
    const parts = new Map<string, string>();
    for (const part of run.stdout.split(/^@@ /m).slice(1)) {
      const newline = part.indexOf("\n");
      parts.set(part.slice(0, newline), part.slice(newline + 1).trim());
    }
    commands.forEach((command, i) => {
      const out = parts.get(String(i));
      // Only the live-events command runs in the background, with no output of its own (checked below).
      if (command.text.startsWith("curl -N ")) return;
      assert.ok(out !== undefined, `the script ran no "${command.text}" (it stopped before it?)`);
      assert.doesNotMatch(out, /^exit \d+:/m, `${command.text}\n${out}`);
      assert.doesNotMatch(out, /"error":\{"code"/, `${command.text}\n${out}`);
      if (command.shown === undefined) return;
      const real = leadingJson(out);
      assert.deepEqual(differences(leadingJson(command.shown), real), [], `${command.text}\n=> ${out}`);
    });
    const events = [...(parts.get("events") ?? "").matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    for (const kind of [
      "player-joined",
      "game-started",
      "narration",
      "turn",
      "submission",
      "quest-answer",
      "quest",
      "player-kicked",
      "status",
    ])
      assert.ok(events.includes(kind), `the event stream had a ${kind} event: ${[...new Set(events)]}`);
    // The exported save and the map are real files.
    assert.match(readFileSync(join(folder, "game.save.json"), "utf8"), /"format":"taleforge-save"/);
    assert.match(readFileSync(join(folder, "map.svg"), "utf8"), /^<svg /);
  });
});
