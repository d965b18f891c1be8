import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { Client, listen, STORE_NAME, suiteServer, WORLD_TEXT } from "./harness.ts";

const QUEST = "The Keeper's Debt";

/**
 * Issue 14 item 5: the next step is computed after the turn's changes. The
 * narration is written before the state phase (spec 2.2), so on arrival at
 * the lighthouse it cannot know that arrive_lighthouse completes the journey:
 * the story names no next step, and the turn event, the transcript and the
 * party's state carry the one that holds after the turn.
 */
describe(`server: the next step after the turn (${STORE_NAME})`, () => {
  let hash: string;
  const running = suiteServer();
  before(async () => {
    hash = (await new Client(running.url).call("POST", "/worlds", WORLD_TEXT)).json.hash;
  });

  it("an arrival trigger completes the step: the turn carries the step after it, the story none", {
    timeout: 120_000,
  }, async () => {
    const anyone = new Client(running.url);
    const created = (await anyone.post("/games", { world: hash, seed: 7 })).json;
    const host = new Client(running.url, created.hostToken);
    const ann = new Client(
      running.url,
      (await anyone.post("/games/join", { invite: created.invite, character: { name: "Ann" } })).json.token,
    );
    assert.equal((await host.post(`/games/${created.id}/start`)).status, 200);
    const stream = listen(`${running.url}/games/${created.id}/events`, ann.token!);
    const turn = async (tick: number, text: string) => {
      const sent = await ann.post(`/games/${created.id}/actions`, { text, idempotencyKey: `t${tick}` });
      assert.ok(sent.status < 300, sent.text);
      await stream.until((events) => events.some((e) => e.event === "turn" && e.data.tick === tick));
      return stream.events.find((e) => e.event === "turn" && e.data.tick === tick)!.data;
    };
    await turn(1, "walk to the Gutted Eel");
    const accepted = await ann.post(`/games/${created.id}/quests/${encodeURIComponent(QUEST)}/accept`);
    assert.equal(accepted.json.status, "accepted", accepted.text);
    const talk = await turn(2, "talk to Mara Venn");
    assert.equal(talk.next, "Travel to the Old Lighthouse on the Gull Coast.");
    const arrival = await turn(3, "travel to the Old Lighthouse");
    assert.ok(arrival.fired.some((f: { trigger: string }) => f.trigger === "arrive_lighthouse"));
    assert.equal(arrival.next, "Climb the lighthouse stairwell.");
    assert.doesNotMatch(arrival.story, /Next:|Travel to the Old Lighthouse on the Gull Coast/);
    // The party's state (the browser's journal) and the transcript say the same.
    const state = (await host.get(`/games/${created.id}`)).json.state;
    assert.equal(state.nextStep, "Climb the lighthouse stairwell.");
    const steps = (await host.get(`/games/${created.id}/transcript`)).json.transcript;
    assert.equal(steps.at(-1).result.next, "Climb the lighthouse stairwell.");
    assert.doesNotMatch(steps.at(-1).narration, /Next:/);
    stream.close();
  });
});
