import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { TextDocument } from "vscode-languageserver-textdocument";
import { generateWorld } from "../../bench/generate-world.ts";
import { parseWorld } from "../../src/world/load.ts";
import { validateWorld } from "../../src/world/validate.ts";
import { positionOf, rangeOf, TestClient } from "./client.ts";

/**
 * `taleforge lsp` driven through the protocol over stdio, as an editor
 * drives it, on the example world and on a generated world at the format's
 * caps. Every expected position is computed from the text itself.
 */
const HARBOR = fileURLToPath(new URL("../../examples/harbor.world.json", import.meta.url));
const harbor = readFileSync(HARBOR, "utf8");
const uri = "file:///work/harbor.world.json";

type Range = ReturnType<typeof rangeOf>;
interface Diag {
  range: Range;
  code: string;
  message: string;
  source: string;
  severity: number;
  relatedInformation?: { location: { range: Range }; message: string }[];
  data?: unknown;
}
interface Edit {
  range: Range;
  newText: string;
}

function textAt(text: string, range: Range): string {
  const doc = TextDocument.create("x", "json", 1, text);
  return doc.getText(range);
}

function applyEdits(text: string, edits: Edit[]): string {
  return TextDocument.applyEdits(TextDocument.create("x", "json", 1, text), edits);
}

/** The position `inside` characters into the first occurrence of `needle`. */
function inside(text: string, needle: string, at = 1, nth = 0) {
  const range = rangeOf(text, needle, nth);
  return { line: range.start.line, character: range.start.character + at };
}

describe("taleforge lsp on the example world", () => {
  const client = new TestClient();
  let version = 1;
  let text = harbor;

  before(async () => {
    const init = await client.initialize();
    for (const capability of [
      "hoverProvider",
      "completionProvider",
      "definitionProvider",
      "referencesProvider",
      "renameProvider",
      "codeActionProvider",
      "documentSymbolProvider",
    ])
      assert.ok(init.capabilities[capability], capability);
    await client.open(uri, text, version);
  });
  after(async () => {
    assert.equal(await client.close(), 0, "exit after shutdown is 0");
  });

  const change = async (from: string, to: string) => {
    const range = rangeOf(text, from);
    text = applyEdits(text, [{ range, newText: to }]);
    version++;
    await client.notify("textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges: [{ range, text: to }],
    });
    const v = version;
    return client.diagnostics((p) => p.uri === uri && p.version === v) as Promise<{ diagnostics: Diag[] }>;
  };

  it("publishes no diagnostic for the clean example world", async () => {
    const published = await client.diagnostics((p) => p.uri === uri && p.version === 1);
    assert.deepEqual(published.diagnostics, []);
  });

  it("a change that breaks a reference publishes check's diagnostic at the exact string, with a quick fix", async () => {
    const published = await change(
      '"currentLocation": "The Gutted Eel"',
      '"currentLocation": "The Gutted Eal"',
    );
    const diagnostic = published.diagnostics.find((d) => d.code === "npc/unknown-location");
    assert.ok(diagnostic, JSON.stringify(published.diagnostics));
    assert.equal(diagnostic.source, "taleforge");
    assert.equal(diagnostic.severity, 1);
    assert.deepEqual(diagnostic.range, rangeOf(text, '"The Gutted Eal"'));
    assert.match(diagnostic.message, /Did you mean "The Gutted Eel"\?/);
    const actions = await client.request<{ title: string; edit: { changes: Record<string, Edit[]> } }[]>(
      "textDocument/codeAction",
      { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic] } },
    );
    assert.equal(actions.length, 1);
    const fixed = applyEdits(text, actions[0]!.edit.changes[uri]!);
    assert.equal(fixed, harbor);
    const back = await change('"The Gutted Eal"', '"The Gutted Eel"');
    assert.deepEqual(back.diagnostics, []);
  });

  it("a name that differs from its key: the diagnostic points at the name, relates the key, and the fix sets the name", async () => {
    const published = await change('"name": "Gib Tarrant"', '"name": "Gib tarrant"');
    const diagnostic = published.diagnostics.find((d) => d.code === "keys/name-mismatch");
    assert.ok(diagnostic);
    assert.deepEqual(diagnostic.range, rangeOf(text, '"Gib tarrant"'));
    // check relates the record ("the key is here"): its value, just after the key.
    const key = rangeOf(text, '"Gib Tarrant": {');
    assert.deepEqual(diagnostic.relatedInformation?.[0]?.location.range.start, {
      line: key.start.line,
      character: key.end.character - 1,
    });
    const actions = await client.request<{ edit: { changes: Record<string, Edit[]> } }[]>(
      "textDocument/codeAction",
      {
        textDocument: { uri },
        range: diagnostic.range,
        context: { diagnostics: [diagnostic] },
      },
    );
    assert.equal(applyEdits(text, actions[0]!.edit.changes[uri]!), harbor);
    await change('"Gib tarrant"', '"Gib Tarrant"');
  });

  it("a missing required field: the fix adds it with the example value of its message", async () => {
    const published = await change('"y": 0,\n', "");
    const diagnostic = published.diagnostics.find((d) => d.code === "shape/missing-field");
    assert.ok(diagnostic, JSON.stringify(published.diagnostics.map((d) => d.code)));
    const actions = await client.request<{ edit: { changes: Record<string, Edit[]> } }[]>(
      "textDocument/codeAction",
      {
        textDocument: { uri },
        range: diagnostic.range,
        context: { diagnostics: [diagnostic] },
      },
    );
    assert.equal(actions.length, 1);
    const fixed = applyEdits(text, actions[0]!.edit.changes[uri]!);
    const checked = validateWorld(parseWorld(fixed, "fixed.json"));
    assert.deepEqual(
      checked.diagnostics.filter((d) => d.code === "shape/missing-field"),
      [],
    );
    // Back to the example as it was, for the tests that follow.
    text = harbor;
    version++;
    await client.notify("textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
    const v = version;
    await client.diagnostics((p) => p.uri === uri && p.version === v);
  });

  it("hover on a reference says what it is and where it is defined; on a field, the format's description", async () => {
    const position = inside(text, '"The Gutted Eel"', 3, text.split('"The Gutted Eel"').length > 3 ? 2 : 1);
    const hover = await client.request<{ contents: { value: string }; range: Range }>("textDocument/hover", {
      textDocument: { uri },
      position,
    });
    assert.match(hover.contents.value, /\*\*location\*\* `The Gutted Eel`/);
    const key = rangeOf(text, '"The Gutted Eel": {');
    assert.match(hover.contents.value, new RegExp(`line ${key.start.line + 1}\\b`));
    assert.equal(textAt(text, hover.range), '"The Gutted Eel"');
    const field = await client.request<{ contents: unknown }>("textDocument/hover", {
      textDocument: { uri },
      position: inside(text, '"currentLocation"', 2),
    });
    assert.match(JSON.stringify(field.contents), /The key of the location where the NPC is at the start/);
    // A field of a union: the branch of the condition's type (read-boolean compares with equals and notEquals only).
    const operator = await client.request<{ contents: { value: string } }>("textDocument/hover", {
      textDocument: { uri },
      position: inside(
        text,
        '"operator"',
        2,
        text.slice(0, text.indexOf('"key": "met_mara"')).split('"operator"').length - 1,
      ),
    });
    assert.match(operator.contents.value, /Values: `equals`, `notEquals`$/m);
  });

  it("hover on a trigger shows its conditions and effects and lint's verdict", async () => {
    const hover = await client.request<{ contents: { value: string } }>("textDocument/hover", {
      textDocument: { uri },
      position: inside(text, '"docks_gossip": {', 2),
    });
    assert.match(hover.contents.value, /- party-location equals "Brinewick Docks"/);
    assert.match(hover.contents.value, /- read-boolean key="met_mara" equals false/);
    assert.match(hover.contents.value, /- party-next-step-set /);
    assert.match(hover.contents.value, /can fire/);
  });

  it("completion in a reference offers every name of its kind; elsewhere the schema's fields", async () => {
    const world = JSON.parse(harbor);
    const list = await client.request<{ items: { label: string; detail: string }[] }>(
      "textDocument/completion",
      {
        textDocument: { uri },
        position: inside(text, '"currentLocation": "The Gutted Eel"', 20),
      },
    );
    assert.deepEqual(list.items.map((i) => i.label).sort(), Object.keys(world.locations).sort());
    // An NPC's area: the areas of its own location only (areas are named within their location).
    const npc = Object.values(
      world.npcs as Record<string, { currentLocation: string; currentArea: string }>,
    )[0]!;
    const area = await client.request<{ items: { label: string }[] }>("textDocument/completion", {
      textDocument: { uri },
      position: inside(text, `"currentArea": "${npc.currentArea}"`, 16),
    });
    assert.deepEqual(
      area.items.map((i) => i.label).sort(),
      Object.keys(world.locations[npc.currentLocation].areas).sort(),
    );
    const quest = await client.request<{ items: { label: string }[] }>("textDocument/completion", {
      textDocument: { uri },
      position: inside(text, '"questId": "', 12),
    });
    assert.deepEqual(quest.items.map((i) => i.label).sort(), Object.keys(world.quests).sort());
    const objectives = await client.request<{ items: { label: string }[] }>("textDocument/completion", {
      textDocument: { uri },
      position: inside(text, '"objectiveId": "find_mara"', 17),
    });
    assert.deepEqual(
      objectives.items.map((i) => i.label).sort(),
      Object.keys(world.quests["The Keeper's Debt"].objectives).sort(),
    );
    const script = await client.request<{ items: { label: string }[] }>("textDocument/completion", {
      textDocument: { uri },
      position: inside(text, '"script": "', 12),
    });
    for (const global of ["check", "storage", "effects", "skip", "triggers", "log"])
      assert.ok(
        script.items.some((i) => i.label === global),
        global,
      );
  });

  it("definition and references of a location, exact ranges", async () => {
    const at = inside(text, '"currentLocation": "The Gutted Eel"', 22);
    const definition = await client.request<{ range: Range }[]>("textDocument/definition", {
      textDocument: { uri },
      position: at,
    });
    assert.deepEqual(
      definition.map((d) => d.range),
      [
        {
          start: rangeOf(text, '"The Gutted Eel": {').start,
          end: positionOf(text, text.indexOf('"The Gutted Eel": {') + 16),
        },
      ],
    );
    const references = await client.request<{ range: Range }[]>("textDocument/references", {
      textDocument: { uri },
      position: at,
      context: { includeDeclaration: false },
    });
    assert.ok(references.length >= 3);
    for (const r of references) assert.equal(textAt(text, r.range), '"The Gutted Eel"');
    assert.ok(
      references.some(
        (r) => r.range.start.line === rangeOf(text, '"currentLocation": "The Gutted Eel"').start.line,
      ),
    );
  });

  it("rename updates the key, the name field, every reference and the script literals, and the world stays clean", async () => {
    const position = inside(text, '"Old Lighthouse": {', 2);
    const prepared = await client.request<{ placeholder: string }>("textDocument/prepareRename", {
      textDocument: { uri },
      position,
    });
    assert.equal(prepared.placeholder, "Old Lighthouse");
    const edit = await client.request<{ changes: Record<string, Edit[]> }>("textDocument/rename", {
      textDocument: { uri },
      position,
      newName: "Old Beacon",
    });
    const edits = edit.changes[uri]!;
    assert.ok(
      edits.some((e) => e.newText === '\\"Old Beacon\\"' && textAt(text, e.range) === '\\"Old Lighthouse\\"'),
      "a script literal",
    );
    const renamed = applyEdits(text, edits);
    const world = JSON.parse(renamed);
    assert.equal(world.locations["Old Beacon"].name, "Old Beacon");
    assert.equal(world.locations["Old Lighthouse"], undefined);
    assert.deepEqual(validateWorld(parseWorld(renamed, "renamed.json")).diagnostics, []);
    await assert.rejects(
      client.request("textDocument/rename", { textDocument: { uri }, position, newName: "Brinewick Docks" }),
      /already exists/,
    );
  });

  it("an area is named within its location: renaming one of two areas of the same name renames only its own", async () => {
    // Two locations, each with a "Gate" reached from one of its areas.
    const world = JSON.parse(harbor);
    const lighthouse = world.locations["Old Lighthouse"];
    const point = world.locations["Gannet Point"];
    lighthouse.areas.Gate = { description: "A gate in the sea wall.", paths: ["Rock Landing"] };
    lighthouse.areas["Rock Landing"].paths.push("Gate");
    point.areas.Gate = { description: "A gate in the cliff fence.", paths: ["Clifftop"] };
    point.areas.Clifftop.paths.push("Gate");
    const gates = `${JSON.stringify(world, null, 2)}\n`;
    const gatesUri = "file:///work/gates.world.json";
    await client.open(gatesUri, gates);
    // The second "Gate" key in the text is Gannet Point's or the lighthouse's, whichever comes later.
    const keys = [...gates.matchAll(/"Gate": \{/g)].map((m) => m.index!);
    assert.equal(keys.length, 2);
    const lighthouseFirst = gates.indexOf('"Old Lighthouse": {') < gates.indexOf('"Gannet Point": {');
    const nth = lighthouseFirst ? 0 : 1;
    const position = inside(gates, '"Gate": {', 2, nth);
    const references = await client.request<{ range: Range }[]>("textDocument/references", {
      textDocument: { uri: gatesUri },
      position,
      context: { includeDeclaration: true },
    });
    // The key and the one path in its own location; never Gannet Point's.
    assert.equal(references.length, 2, JSON.stringify(references));
    const edit = await client.request<{ changes: Record<string, Edit[]> }>("textDocument/rename", {
      textDocument: { uri: gatesUri },
      position,
      newName: "Sea Gate",
    });
    const renamed = JSON.parse(applyEdits(gates, edit.changes[gatesUri]!));
    assert.deepEqual(Object.keys(renamed.locations["Old Lighthouse"].areas).includes("Sea Gate"), true);
    assert.equal(renamed.locations["Old Lighthouse"].areas.Gate, undefined);
    assert.ok(renamed.locations["Old Lighthouse"].areas["Rock Landing"].paths.includes("Sea Gate"));
    assert.ok(renamed.locations["Gannet Point"].areas.Gate, "the other location's Gate is kept");
    assert.ok(renamed.locations["Gannet Point"].areas.Clifftop.paths.includes("Gate"));
    // A name taken in the same location is refused; the other location's is free to share.
    await assert.rejects(
      client.request("textDocument/rename", {
        textDocument: { uri: gatesUri },
        position,
        newName: "Stairwell",
      }),
      /already exists/,
    );
    const shared = await client.request<{ changes: Record<string, Edit[]> }>("textDocument/rename", {
      textDocument: { uri: gatesUri },
      position,
      newName: "Clifftop",
    });
    assert.ok(shared.changes[gatesUri]!.length >= 2);
  });

  it("rename of a storage key reaches conditions, effects and scripts", async () => {
    const position = inside(text, '"key": "lighthouse_visits"', 9);
    const edit = await client.request<{ changes: Record<string, Edit[]> }>("textDocument/rename", {
      textDocument: { uri },
      position,
      newName: "tower_visits",
    });
    const renamed = applyEdits(text, edit.changes[uri]!);
    // Every use of the key is renamed; the trigger named after it (count_lighthouse_visits) is another name.
    assert.deepEqual(renamed.match(/(?<![\w])lighthouse_visits(?![\w])/g), null);
    assert.ok(renamed.includes('"count_lighthouse_visits"'));
    assert.ok(renamed.includes("storage.tower_visits"));
    assert.deepEqual(validateWorld(parseWorld(renamed, "renamed.json")).diagnostics, []);
  });

  it("document symbols list the sections and their records; the summary command counts", async () => {
    const symbols = await client.request<{ name: string; children?: { name: string }[] }[]>(
      "textDocument/documentSymbol",
      {
        textDocument: { uri },
      },
    );
    const world = JSON.parse(harbor);
    const quests = symbols.find((s) => s.name === "quests");
    assert.deepEqual(
      quests?.children?.map((c) => c.name),
      Object.keys(world.quests),
    );
    const summary = await client.request<{ counts: Record<string, number>; unreachableQuests: string[] }>(
      "workspace/executeCommand",
      { command: "taleforge.summary", arguments: [uri] },
    );
    assert.equal(summary.counts.triggers, Object.keys(world.triggers).length);
    assert.deepEqual(summary.unreachableQuests, []);
  });

  it("a play-test file gets its format problems as diagnostics", async () => {
    const test = "file:///work/broken.test.yaml";
    const body =
      "world: ../harbor.world.json\nname: broken\nturns:\n  - act: wait\n    expec:\n      fired: [docks_gossip]\n";
    await client.open(test, body);
    const published = (await client.diagnostics((p) => p.uri === test)) as { diagnostics: Diag[] };
    assert.ok(published.diagnostics.length > 0);
    const d = published.diagnostics[0]!;
    assert.match(d.code, /^playtest\//);
    assert.equal(d.range.start.line, 4, JSON.stringify(d));
  });
});

describe("taleforge lsp on a play-test of the example world", () => {
  const client = new TestClient();
  // Beside the example world (which is read from disk): `world:` is relative to the play-test.
  const test = new URL("../../examples/tests/unsaved-names.test.yaml", import.meta.url).href;
  const body = [
    "world: ../harbor.world.json",
    "name: names",
    "turns:",
    "  - accept: The Keepers Debt",
    "    expect:",
    "      fired: [docks_gossip, docks_gosip]",
    "      party: { location: Gutted Eel }",
    "  - act: wait",
    "    judge: { meet_maar: true }",
    "    expect:",
    "      players:",
    "        Orla Quil: { level: 1 }",
    "      quests:",
    "        The Tongueless Bell: available",
    "",
  ].join("\n");
  after(async () => {
    assert.equal(await client.close(), 0);
  });

  it("names the world does not define are diagnostics at their exact place", async () => {
    await client.initialize();
    await client.open(test, body);
    const published = (await client.diagnostics((p) => p.uri === test)) as { diagnostics: Diag[] };
    const found = published.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]);
    assert.deepEqual(found, [
      ["playtest/unknown-name", 3, 12],
      ["playtest/unknown-name", 5, 28],
      ["playtest/unknown-name", 6, 25],
      ["playtest/unknown-name", 8, 13],
      ["playtest/unknown-name", 11, 8],
    ]);
    const messages = published.diagnostics.map((d) => d.message).join("\n");
    assert.match(messages, /No quest "The Keepers Debt" in the world\. Did you mean "The Keeper's Debt"\?/);
    assert.match(messages, /No trigger "docks_gosip"/);
    assert.match(messages, /No location "Gutted Eel"/);
    assert.match(messages, /No trigger "meet_maar"/);
    assert.match(messages, /No party member "Orla Quil"/);
  });

  it("completion offers the world's names where a play-test names them", async () => {
    const lines = body.split("\n");
    const at = (line: number, text: string, offset = 0) => ({
      line,
      character: lines[line]!.indexOf(text) + offset,
    });
    const complete = (position: { line: number; character: number }) =>
      client.request<{ items: { label: string; detail: string }[] }>("textDocument/completion", {
        textDocument: { uri: test },
        position,
      });
    const world = JSON.parse(harbor);
    const labels = async (position: { line: number; character: number }) =>
      (await complete(position)).items.map((i) => i.label).sort();
    assert.deepEqual(await labels(at(3, "The Keepers", 2)), Object.keys(world.quests).sort());
    // The world's triggers, and the ones the engine adds for quest objectives.
    const triggers = Object.keys(world.triggers);
    const offered = await labels(at(5, "docks_gosip", 2));
    assert.deepEqual(
      triggers.filter((t) => !offered.includes(t)),
      [],
    );
    assert.ok(
      offered.every((t) => triggers.includes(t) || t.endsWith("_objective")),
      String(offered),
    );
    assert.deepEqual(await labels(at(6, "Gutted", 2)), Object.keys(world.locations).sort());
    assert.deepEqual(await labels(at(8, "meet_maar", 2)), offered);
    assert.deepEqual(await labels(at(13, "Tongueless", 2)), Object.keys(world.quests).sort());
    assert.deepEqual(await labels(at(1, "names", 1)), []);
  });

  it("an open world's unsaved text is what the play-test is checked against", async () => {
    const worldUri = new URL("../../examples/harbor.world.json", import.meta.url).href;
    const renamed = harbor.replace('"docks_gossip"', '"docks_gosip"');
    await client.open(worldUri, renamed);
    const published = (await client.diagnostics(
      (p) =>
        p.uri === test && (p.diagnostics as Diag[]).some((d) => /No trigger "docks_gossip"/.test(d.message)),
    )) as { diagnostics: Diag[] };
    assert.ok(!published.diagnostics.some((d) => /"docks_gosip"/.test(d.message.split(".")[0]!)));
  });
});

describe("taleforge lsp on hostile text", () => {
  const client = new TestClient();
  after(async () => {
    assert.equal(await client.close(), 0);
  });

  it("a world nested far too deep gets its diagnostic; requests answer nothing; the server lives on", async () => {
    await client.initialize();
    const deep = `{"configVersion": "V33", "x": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const deepUri = "file:///work/deep.world.json";
    await client.open(deepUri, deep);
    const published = (await client.diagnostics((p) => p.uri === deepUri)) as { diagnostics: Diag[] };
    assert.deepEqual(
      published.diagnostics.map((d) => d.code),
      ["json/too-deep"],
    );
    const position = { line: 0, character: 50_000 };
    assert.equal(
      await client.request("textDocument/hover", { textDocument: { uri: deepUri }, position }),
      null,
    );
    assert.deepEqual(
      await client.request("textDocument/definition", { textDocument: { uri: deepUri }, position }),
      [],
    );
    // Not JSON at all: one syntax diagnostic, and the server still answers.
    const brokenUri = "file:///work/broken.world.json";
    await client.open(brokenUri, '{"configVersion": "V33", "npcs": {"A": ');
    const broken = (await client.diagnostics((p) => p.uri === brokenUri)) as { diagnostics: Diag[] };
    assert.deepEqual(
      broken.diagnostics.map((d) => d.code),
      ["json/syntax"],
    );
    const symbols = await client.request<unknown[]>("textDocument/documentSymbol", {
      textDocument: { uri: brokenUri },
    });
    assert.ok(Array.isArray(symbols));
  });
});

describe("taleforge lsp on a world at the format's caps", () => {
  const client = new TestClient();
  const text = JSON.stringify(generateWorld(1), null, 2);
  const capUri = "file:///work/at-cap.world.json";

  after(async () => {
    await client.close();
  });

  it("publishes the diagnostic of a broken reference at its exact range, and jumps to definitions", async () => {
    await client.initialize();
    await client.open(capUri, text, 1);
    await client.diagnostics((p) => p.uri === capUri && p.version === 1);
    const match = /"currentLocation": ("[^"]+")/.exec(text)!;
    const valueOffset = match.index + match[0].length - match[1]!.length;
    const range = {
      start: positionOf(text, valueOffset),
      end: positionOf(text, valueOffset + match[1]!.length),
    };
    await client.notify("textDocument/didChange", {
      textDocument: { uri: capUri, version: 2 },
      contentChanges: [{ range, text: '"Nowhere At All"' }],
    });
    const published = (await client.diagnostics((p) => p.uri === capUri && p.version === 2)) as {
      diagnostics: Diag[];
    };
    const d = published.diagnostics.find((x) => x.code === "npc/unknown-location");
    assert.ok(d);
    assert.deepEqual(d.range, {
      start: range.start,
      end: { line: range.start.line, character: range.start.character + '"Nowhere At All"'.length },
    });
    // Back, then definition of the original name.
    await client.notify("textDocument/didChange", {
      textDocument: { uri: capUri, version: 3 },
      contentChanges: [{ range: d.range, text: match[1]! }],
    });
    const definition = await client.request<{ range: Range }[]>("textDocument/definition", {
      textDocument: { uri: capUri },
      position: { line: range.start.line, character: range.start.character + 2 },
    });
    const key = text.indexOf(`${match[1]}: {`, text.indexOf('"locations": {'));
    assert.deepEqual(
      definition.map((x) => x.range.start),
      [positionOf(text, key)],
    );
  });
});
