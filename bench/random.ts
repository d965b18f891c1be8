/**
 * A small seeded generator (mulberry32), so that a generated world, and so a
 * benchmark figure, is the same on every run and every machine.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(list: readonly T[]): T {
    if (list.length === 0) throw new Error("pick from an empty list");
    return list[Math.floor(this.next() * list.length)]!;
  }

  /** `count` distinct elements (all of them when the list is shorter). */
  sample<T>(list: readonly T[], count: number): T[] {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, count);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }
}
