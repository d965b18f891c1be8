import type { ConditionType } from "../schema/conditions.ts";
/**
 * What can happen during play, as sets that only grow: the quests that can
 * be made available or completed, the narrative events that can start, the
 * entities that can be marked known and the storage values that can be
 * written. The reachability fixpoint (reachability.ts) adds to them; every
 * set over-approximates, so "not in the set" means "never".
 */

export type Scalar = string | number | boolean;

/** A set of scalar values (1 and "1" are different), or every value. */
export class Values {
  any = false;
  private readonly values = new Map<string, Scalar>();

  /** Whether anything at all was added. */
  get empty(): boolean {
    return !this.any && this.values.size === 0;
  }

  get size(): number {
    return this.values.size;
  }

  has(value: unknown): boolean {
    return this.any || (isScalar(value) && this.values.has(encode(value)));
  }

  /** The values, when finite. */
  list(): Scalar[] {
    return [...this.values.values()];
  }

  /** Adds a value; returns whether the set grew. */
  add(value: unknown): boolean {
    if (this.any) return false;
    if (!isScalar(value)) return this.addAny();
    const key = encode(value);
    if (this.values.has(key)) return false;
    this.values.set(key, value);
    return true;
  }

  addAny(): boolean {
    if (this.any) return false;
    this.any = true;
    this.values.clear();
    return true;
  }

  /** Adds everything of another set; returns whether this set grew. */
  merge(other: Values): boolean {
    if (other.any) return this.addAny();
    let grew = false;
    for (const value of other.values.values()) grew = this.add(value) || grew;
    return grew;
  }
}

function isScalar(value: unknown): value is Scalar {
  return typeof value === "string" || typeof value === "boolean" || Number.isFinite(value);
}

function encode(value: Scalar): string {
  return `${typeof value}:${String(value)}`;
}

/** The values one storage key can be written with, by the type a `read-*` condition sees. */
export class KeyWrites {
  readonly number = new Values();
  readonly string = new Values();
  readonly boolean = new Values();
  /** Elements arrays can hold. */
  readonly elements = new Values();
  /** An array is written (possibly empty). */
  array = false;

  static everything(): KeyWrites {
    const all = new KeyWrites();
    all.addAny();
    return all;
  }

  addAny(): boolean {
    const grew = [this.number, this.string, this.boolean, this.elements].map((v) => v.addAny());
    const array = !this.array;
    this.array = true;
    return grew.some(Boolean) || array;
  }

  merge(other: KeyWrites): boolean {
    let grew = this.number.merge(other.number);
    grew = this.string.merge(other.string) || grew;
    grew = this.boolean.merge(other.boolean) || grew;
    grew = this.elements.merge(other.elements) || grew;
    if (other.array && !this.array) {
      this.array = true;
      grew = true;
    }
    return grew;
  }
}

/** The four kinds of value a storage key is read as. */
export type StorageKind = "number" | "string" | "boolean" | "array";

/** The kind each `read-*` condition type reads a key as (the compiler reports a `read-*` type without one). */
export const READ_KINDS: Readonly<Record<string, StorageKind>> = {
  "read-number": "number",
  "read-string": "string",
  "read-boolean": "boolean",
  "read-array": "array",
} satisfies Record<Extract<ConditionType, `read-${string}`>, StorageKind>;

/** The fallback a read of a missing key (or of a value of another type) sees, as messages write it (spec 2.2). */
export const FALLBACK_TEXT: Readonly<Record<StorageKind, string>> = {
  number: "0",
  string: '""',
  boolean: "false",
  array: "[]",
};

export class Facts {
  readonly available = new Set<string>();
  availableAll = false;
  /** Quests a `quest-complete` can reach. */
  readonly completed = new Set<string>();
  completedAll = false;
  /** Quests a `quest-progress` can reach. */
  readonly progressed = new Set<string>();
  progressedAll = false;
  readonly started = new Set<string>();
  startedAll = false;
  /** Entities an effect can mark known. */
  readonly known = new Set<string>();
  knownAll = false;
  readonly storage = new Map<string, KeyWrites>();
  /** Writes that may go to any key (scripts with computed keys). */
  readonly storageAll = new KeyWrites();
  /** Set whenever a set grows; the fixpoint clears it between passes. */
  grew = false;

  /** Someone can do anything (a script that reading cannot follow). */
  anything(): void {
    const before = [this.availableAll, this.completedAll, this.progressedAll, this.startedAll, this.knownAll];
    this.availableAll = this.completedAll = this.progressedAll = true;
    this.startedAll = this.knownAll = true;
    if (this.storageAll.addAny() || before.includes(false)) this.grew = true;
  }

  addTo(set: Set<string>, name: string): void {
    if (set.has(name)) return;
    set.add(name);
    this.grew = true;
  }

  writes(key: string): KeyWrites {
    let writes = this.storage.get(key);
    if (!writes) {
      writes = new KeyWrites();
      this.storage.set(key, writes);
    }
    return writes;
  }

  /** What `read-*` of the key can see besides its fallback: the key's writes and the writes to any key. */
  readable(key: string): KeyWrites {
    const out = new KeyWrites();
    out.merge(this.storageAll);
    const own = this.storage.get(key);
    if (own) out.merge(own);
    return out;
  }

  written(key: string, kind: StorageKind): boolean {
    const writes = this.readable(key);
    return kind === "array" ? writes.array : !writes[kind].empty;
  }
}
