import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./control-characters.ts";

testRule(rule, {
  valid: [
    { lore: { Mill: { content: "Line one.\nLine two,\tindented." } } },
    { lore: { Mill: { content: "Café, naïve, 漢字 and emoji 🐑 are text." } } },
    // Backslashes written in the text (a regular expression's \b, a written \u001b) are not controls.
    { lore: { Mill: { content: "A pattern \\b(open)\\b, a written \\u001b and \\r are text." } } },
  ],
  invalid: [
    {
      // An escaped backslash right before a real escape: the control is still found.
      patch: { lore: { Mill: { content: "path\\\u001b[2J" } } },
      errors: [
        {
          path: ["lore", "Mill", "content"],
          messageId: "found",
          data: { where: "This text", char: "U+001B" },
        },
      ],
    },
    {
      patch: { lore: { Mill: { content: "The mill\u001b]0;pwned\u0007 creaks." } } },
      errors: [
        {
          path: ["lore", "Mill", "content"],
          messageId: "found",
          data: { where: "This text", char: "U+001B" },
        },
      ],
    },
    {
      patch: { lore: { "Mill\u202e": { content: "ok" } } },
      errors: [
        { path: ["lore", "Mill\u202e"], messageId: "found", data: { where: "This key", char: "U+202E" } },
      ],
    },
    {
      patch: { lore: { Mill: { content: "carriage\rreturn", keywords: ["a\u009bb"] } } },
      errors: [
        {
          path: ["lore", "Mill", "content"],
          messageId: "found",
          data: { where: "This text", char: "U+000D" },
        },
        {
          path: ["lore", "Mill", "keywords", 0],
          messageId: "found",
          data: { where: "This text", char: "U+009B" },
        },
      ],
    },
  ],
});
