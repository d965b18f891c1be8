import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./overlap.ts";

const region = (name: string, x: number, y: number, realm?: string) => ({
  [name]: { name, basicInfo: "Hills.", x, y, ...(realm === undefined ? {} : { realm }) },
});

testRule(rule, {
  valid: [
    {},
    {
      name: "the same cell in another realm",
      patch: {
        realms: { Peaks: { name: "Peaks", basicInfo: "High." } },
        regions: region("Crag", 0, 0, "Peaks"),
      },
    },
    {
      name: "regions on no realm map may share a cell",
      patch: { regions: { ...region("Crag", 0, 0), ...region("Tor", 0, 0, "") } },
    },
  ],
  invalid: [
    {
      name: "two more regions on the cell of the first",
      patch: { regions: { ...region("Crag", 0, -1, "Vale"), ...region("Tor", 0, -1, "Vale") } },
      errors: [
        {
          path: ["regions", "Crag"],
          messageId: "sameCell",
          data: { region: "Crag", x: 0, y: -1, realm: "Vale", other: "Southmarsh" },
        },
        {
          path: ["regions", "Tor"],
          messageId: "sameCell",
          data: { region: "Tor", x: 0, y: -1, realm: "Vale", other: "Southmarsh" },
        },
      ],
    },
  ],
});
