/**
 * The play-test `taleforge init` writes beside the starter world
 * (src/world/starter.ts; the format is docs/playtests.md): the quest starts
 * at the Old Well, where its giver is, and is completed at the watchtower.
 */
export function starterPlaytest(worldFile: string): string {
  return `# A play-test of ${worldFile} (docs/playtests.md). Run it with: taleforge test <this file>
world: ${JSON.stringify(worldFile)}
tests:
  - name: the lost flame is found and relit
    turns:
      - act: walk to the Old Well
        expect:
          fired: [start_lost_flame]
          quests: { The Lost Flame: available }
      - accept: The Lost Flame
      - act: travel to the Ridge Watchtower
        expect:
          party: { location: Ridge Watchtower }
          fired: [relight_the_beacon]
          quests: { The Lost Flame: completed }
`;
}
