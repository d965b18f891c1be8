import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readWalkthrough } from "../helpers/walkthrough.ts";
import { Client, listen, STORE_NAME, suiteServer } from "./harness.ts";

interface SavedQuest {
  status: string;
  objectives: Record<string, string>;
}

/**
 * Everything a player of a long three-player game can read (every answer of every route, every event of
 * their streams) is scanned, turn by turn, for what the game hides from players at that moment: the ids
 * of hidden objectives, the names of hidden quests, and always the world's hiddenInfo, its scripts and the
 * scripts' storage.
 */
describe(`server: what players see (${STORE_NAME})`, () => {
  const running = suiteServer();

  it("no player-visible byte holds a hidden objective, a hidden quest, hiddenInfo, a script or storage", {
    timeout: 180_000,
  }, async () => {
    const walkthrough = readWalkthrough();
    const anyone = new Client(running.url);
    const worlds = await anyone.get("/worlds");
    const hash = worlds.json.worlds.find((w: { bundled: boolean }) => w.bundled).hash as string;
    const world = JSON.parse((await running.server.store.world(hash))!.text);
    const created = await anyone.post("/games", {
      world: hash,
      storyStart: walkthrough.storyStart,
      seed: 11,
    });
    const { id, hostToken, invite } = created.json;
    const host = new Client(running.url, hostToken);
    const players: Client[] = [];
    for (const character of [
      { premade: walkthrough.player.premade },
      { name: "Ada Quill", traits: ["Noble"] },
      { name: "Bo Tarr", traits: ["Dockborn"] },
    ]) {
      const joined = await anyone.post("/games/join", { invite, character });
      assert.equal(joined.status, 201, joined.text);
      players.push(new Client(running.url, joined.json.token));
    }
    const streams = players.map((p) => listen(`${running.url}/games/${id}/events`, p.token!));
    for (const s of streams) assert.equal(await s.ready, 200);

    // What is always secret: hiddenInfo, the scripts' source, storage keys (read from the host's view).
    const always: string[] = [];
    const walk = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === "object")
        for (const [k, v] of Object.entries(value)) {
          if (k === "hiddenInfo" && typeof v === "string" && v.length > 10) always.push(v.slice(0, 40));
          else if (k === "script" && typeof v === "string" && v.length > 10) always.push(v.slice(0, 40));
          else walk(v);
        }
    };
    walk(world);
    const storageKeys = new Set<string>();

    /** The secrets of the game as it stands: hidden quests' names and hidden objectives' ids. */
    const hiddenNow = async () => {
      const save = await host.get(`/games/${id}/save`);
      assert.equal(save.status, 200);
      const quests = save.json.state.quests as Record<string, SavedQuest>;
      const out: string[] = [];
      // A quest the state does not hold yet is hidden, with every objective of it.
      for (const [name, quest] of Object.entries(world.quests as Record<string, { objectives: object }>))
        if (!(name in quests))
          out.push(JSON.stringify(name), ...Object.keys(quest.objectives).map((o) => JSON.stringify(o)));
      for (const [name, quest] of Object.entries(quests)) {
        if (quest.status === "hidden") out.push(JSON.stringify(name));
        for (const [objective, status] of Object.entries(quest.objectives))
          if (status === "hidden" || quest.status === "hidden") out.push(JSON.stringify(objective));
      }
      const storage = await host.get(`/games/${id}/storage`);
      for (const key of Object.keys(storage.json.storage ?? {}))
        if (key.length >= 6) storageKeys.add(JSON.stringify(key));
      return out;
    };

    let scanned = { answers: 0, events: 0 };
    const seenAt = players.map(() => 0);
    const eventsAt = streams.map(() => 0);
    const scan = async (when: string) => {
      const secrets = [...(await hiddenNow()), ...always, ...storageKeys];
      for (const [i, player] of players.entries()) {
        for (const path of [`/games/${id}`, `/games/${id}/transcript`, `/games/${id}/narrative-events`])
          await player.get(path);
        const answers = player.seen.slice(seenAt[i]);
        seenAt[i] = player.seen.length;
        const events = streams[i]!.events.slice(eventsAt[i]);
        eventsAt[i] = streams[i]!.events.length;
        scanned = { answers: scanned.answers + answers.length, events: scanned.events + events.length };
        const texts = [
          ...answers.map((a) => ({ where: a.route, text: a.text })),
          ...events.map((e) => ({ where: `event ${e.event} ${e.id ?? ""}`, text: JSON.stringify(e.data) })),
        ];
        for (const { where, text } of texts)
          for (const secret of secrets)
            assert.ok(!text.includes(secret), `${when}: player ${i + 1} read ${secret} in ${where}`);
      }
    };

    assert.equal((await host.post(`/games/${id}/start`)).status, 200);
    await scan("the opening");
    const hiddenQuests = async () => {
      const save = await host.get(`/games/${id}/save`);
      const quests = save.json.state.quests as Record<string, SavedQuest>;
      return Object.keys(world.quests).filter((name) => (quests[name]?.status ?? "hidden") === "hidden");
    };
    let triedHidden = 0;
    const unknown = await players[0]!.post(
      `/games/${id}/quests/${encodeURIComponent("No Such Quest")}/accept`,
    );
    for (const [tick, step] of walkthrough.steps.entries()) {
      // Accepting a quest still hidden is told exactly what accepting one that does not exist is told.
      for (const quest of await hiddenQuests()) {
        triedHidden++;
        const tried = await players[1]!.post(`/games/${id}/quests/${encodeURIComponent(quest)}/accept`);
        players[1]!.seen.pop(); // it names the quest the player sent, and only that (below)
        assert.equal(
          tried.text.replaceAll(JSON.stringify(quest).slice(1, -1), "?"),
          unknown.text.replaceAll("No Such Quest", "?"),
          `accepting the hidden quest "${quest}"`,
        );
      }
      const actions = [step.command, "follow the others", "keep watch"];
      for (const [i, player] of players.entries()) {
        const sent = await player.post(`/games/${id}/actions`, {
          text: actions[i],
          idempotencyKey: `t${tick}`,
        });
        assert.equal(sent.status, 202, sent.text);
      }
      for (const s of streams)
        await s.until((events) => events.some((e) => e.event === "turn" && e.data.tick === tick + 1));
      const turn = streams[0]!.events.find((e) => e.event === "turn" && e.data.tick === tick + 1)!;
      for (const prompt of turn.data.prompts as { quest: string }[]) {
        const answered = await players[2]!.post(
          `/games/${id}/quests/${encodeURIComponent(prompt.quest)}/accept`,
        );
        assert.equal(answered.status, 200, answered.text);
      }
      await scan(`turn ${tick + 1} (${step.command})`);
    }
    for (const s of streams) s.close();
    assert.ok(triedHidden > 0, "a hidden quest was answered");
    assert.ok(scanned.events > 50 && scanned.answers > 50, `scanned ${JSON.stringify(scanned)}`);
  });
});
