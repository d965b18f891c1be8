/**
 * Lookups that many rules need (entries of a section, every raw condition and
 * effect, areas by location), computed once per world instead of once per
 * rule. Only frozen values are remembered: validateWorld deep-freezes the
 * world before its rules run, so a frozen value cannot change under its
 * lookup, and nothing is kept once the world is gone (weak keys). Nothing is
 * kept between runs of the command either: each check computes its own.
 */
export function perFrozenValue<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, V>();
  return (key) => {
    if (!Object.isFrozen(key)) return compute(key);
    let value = cache.get(key);
    if (value === undefined && !cache.has(key)) {
      value = compute(key);
      cache.set(key, value);
    }
    return value as V;
  };
}
