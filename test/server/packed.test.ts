import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { inflateRawSync } from "node:zlib";
import Database from "better-sqlite3";
import { DATABASE_URL, exampleGame, playTurn, suiteServer } from "./harness.ts";

/**
 * A turn row's large texts (state, trace, cassette: store/packed.ts): SQLite keeps them deflated,
 * PostgreSQL as text (it compresses them itself); either way every read gives the same text, and a
 * row written as text before this reads as it did.
 */
describe("server store: turn rows' large texts on SQLite", {
  skip: DATABASE_URL ? "SQLite only: PostgreSQL compresses them itself (store.test.ts, lz4)" : false,
}, () => {
  const running = suiteServer();

  it("are kept smaller than their text on SQLite, and read the same, old text rows too", async () => {
    const g = await exampleGame(running.url);
    for (const text of ["look around", "walk to the Gutted Eel", "talk to Mara"]) await playTurn(g, text);
    const save = (await g.host.get(`/games/${g.id}/save`)).text;
    const cassette = (await g.host.get(`/games/${g.id}/cassette`)).text;
    const trace = (await g.host.get(`/games/${g.id}/trace`)).text;
    const file = new Database(join(running.where.data!, "taleforge.sqlite"));
    try {
      const rows = file
        .prepare(
          "select seq, typeof(state) as kind, length(state) as bytes from turns where game_id = ? order by seq",
        )
        .all(g.id) as { seq: number; kind: string; bytes: number }[];
      assert.equal(rows.length, 4, "the opening and three turns");
      for (const row of rows) assert.equal(row.kind, "blob", `step ${row.seq} is kept deflated`);
      // Smaller than the text it holds: the head's state against the save the server gives.
      const head = rows.at(-1)!;
      assert.ok(head.bytes * 3 < save.length, `${head.bytes} bytes kept for a save of ${save.length}`);
      // A row written as text (before this) reads as it did: the head's state put back as text.
      const stored = file
        .prepare("select state from turns where game_id = ? and seq = ?")
        .get(g.id, head.seq) as {
        state: Buffer;
      };
      file
        .prepare("update turns set state = ? where game_id = ? and seq = ?")
        .run(inflateRawSync(stored.state).toString("utf8"), g.id, head.seq);
      assert.equal(
        (
          file
            .prepare("select typeof(state) as kind from turns where game_id = ? and seq = ?")
            .get(g.id, head.seq) as {
            kind: string;
          }
        ).kind,
        "text",
      );
    } finally {
      file.close();
    }
    assert.equal((await g.host.get(`/games/${g.id}/save`)).text, save);
    assert.equal((await g.host.get(`/games/${g.id}/cassette`)).text, cassette);
    assert.equal((await g.host.get(`/games/${g.id}/trace`)).text, trace);
    // And the game plays on from it.
    await playTurn(g, "wait and listen");
  });
});
