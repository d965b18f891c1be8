import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { aboutCharacter } from "./voice.ts";

/** Second-person prose told of one character of a party (issue 34 item 2): whom it is about is said. */
describe("offline voice: a line told of a character", () => {
  it("names the character where the line first speaks of them, as subject, object or owner", () => {
    const cases: [string, RegExp][] = [
      ["You try to open the door.", /^Ada Quill tries to open the door\.$/],
      ["Your nerve is fraying.", /^Ada Quill's nerve is fraying\.$/],
      // The offline narrator's lines for an act told again (repeat.ts) front the subject with an adverb.
      ["Again you try to keep watch.", /^Again Ada Quill tries to keep watch\.$/],
      ["Once more you try to keep watch.", /^Once more Ada Quill tries to keep watch\.$/],
      [
        "Still you try to keep watch; still nothing.",
        /^Still Ada Quill tries to keep watch; still nothing\.$/,
      ],
      ["Mara looks at you and waits.", /^Mara looks at Ada Quill and waits\.$/],
      [
        "Corvin Slade recognises an old house in your face. He is courteous to you.",
        /^Corvin Slade recognises an old house in Ada Quill's face\. He is courteous to them\.$/,
      ],
    ];
    for (const [line, told] of cases) assert.match(aboutCharacter(line, "Ada Quill"), told, line);
  });

  it("leaves what someone says as written", () => {
    assert.equal(
      aboutCharacter('Mara says, "You owe me." You shrug.', "Ada Quill"),
      'Mara says, "You owe me." Ada Quill shrugs.',
    );
  });
});
