import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { nameSkeleton } from "../../src/server/names.ts";
import { assertRefused, Client, STORE_NAME, suiteServer } from "./harness.ts";

/** Player names that only a close look tells apart are refused (docs/server.md "Security model"). */
describe(`server: names that pass for another player's (${STORE_NAME})`, () => {
  let anyone: Client;
  let hash: string;
  const running = suiteServer();
  before(async () => {
    anyone = new Client(running.url);
    hash = (await anyone.get("/worlds")).json.worlds[0].hash;
  });

  const newGame = async () => (await anyone.post("/games", { world: hash, seed: 1 })).json.invite as string;
  const join = (invite: string, character: object) => anyone.post("/games/join", { invite, character });

  it("refuses another script's letters, another case, full width and doubled spaces with game/name-confusable", async () => {
    const invite = await newGame();
    assert.equal((await join(invite, { premade: "Isobel Carrow" })).status, 201);
    assert.equal((await join(invite, { name: "Ada Quill" })).status, 201);
    for (const [name, like] of [
      ["\u0406sobel Carrow", "Isobel Carrow"], // Cyrillic І
      ["isobel carrow", "Isobel Carrow"],
      ["ISOBEL  CARROW", "Isobel Carrow"],
      ["\uff21da Quill", "Ada Quill"], // full-width Ａ
      ["Ad\u0430 Quill", "Ada Quill"], // Cyrillic а
      ["Ada Qu\u0131ll", "Ada Quill"], // dotless ı
    ] as const) {
      const refused = assertRefused(
        await join(invite, { name }),
        409,
        "game/name-confusable",
        /looks like "(Isobel Carrow|Ada Quill)", who already plays in this game; choose a name/,
      );
      assert.deepEqual(refused.details, { name, other: like }, name);
    }
    // The exact name is still the plain "already played".
    assertRefused(await join(invite, { name: "Ada Quill" }), 409, "game/name-taken", /already played/);
    // Names that only share letters are fine.
    assert.equal((await join(invite, { name: "Ada Quilling" })).status, 201);
    const players = (await anyone.get(`/invites/${invite}`)).json.players as string[];
    assert.deepEqual(players, ["Isobel Carrow", "Ada Quill", "Ada Quilling"]);
  });

  it("lets one of two look-alike names joining at the same moment in, never both", async () => {
    for (let round = 0; round < 4; round++) {
      const invite = await newGame();
      const answers = await Promise.all(
        ["Wren", "\u051cren", "WREN", "\uff37ren"].map((name) => join(invite, { name })),
      );
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [201, 409, 409, 409], answers.map((a) => a.text).join("\n"));
      for (const a of answers.filter((a) => a.status === 409))
        assert.equal(a.json.error.code, "game/name-confusable", a.text);
    }
  });

  it("keeps a skeleton by NFKC, case and the TR39 confusables", () => {
    assert.equal(nameSkeleton("\uff21da"), nameSkeleton("ada"));
    assert.equal(nameSkeleton("\u0406sobel"), nameSkeleton("Isobel"));
    assert.equal(nameSkeleton("rn"), nameSkeleton("m"));
    assert.notEqual(nameSkeleton("Ada"), nameSkeleton("Eda"));
  });
});
