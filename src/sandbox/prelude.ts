/**
 * The in-isolate setup of one script run, as source text. It runs in every
 * fresh context before the script: it hardens the context (no eval, no
 * Function constructor through any function prototype, no WebAssembly or
 * shared memory), installs the globals of spec 4, and returns the read-back
 * function that serialises what the script left behind. Everything the
 * read-back needs is captured here, before the script can replace or pollute
 * it, and the read-back runs inside the isolate under the phase's timeout, so
 * hostile getters, proxies and toJSON methods only burn the script's own time.
 *
 * The read-back reads the global object's properties: a top-level
 * `let storage` in a script is a local of that script, not a reassignment.
 * A trigger map reassigned to a non-object is ignored (left alone), and at
 * most 1000 effects are read back (the engine keeps 5).
 *
 * The read-back answers one string: flags, storage JSON, effects JSON and
 * trigger JSON (or "" when the triggers were left alone), separated by NUL,
 * which JSON text can never contain raw.
 *
 * Inputs (set on the global object by the child, removed here):
 * `__tfIn` JSON {snapshot, storage, effects, info, seed: [4 x uint32], now},
 * `__tfTriggers` the trigger map's JSON text, `__tfLog` a host callback
 * (level, text) -> boolean (false once the phase's log cap is reached),
 * `__tfCheck` the bundled `scriptCheck`.
 */
export const PRELUDE = String.raw`(function () {
  "use strict";
  const g = globalThis;
  const input = g.__tfIn, triggersJson = g.__tfTriggers, emit = g.__tfLog, scriptCheck = g.__tfCheck;
  delete g.__tfIn; delete g.__tfTriggers; delete g.__tfLog; delete g.__tfCheck;
  const parse = JSON.parse, stringify = JSON.stringify, isArray = Array.isArray, isView = ArrayBuffer.isView;
  const defineProperty = Object.defineProperty, getPrototypeOf = Object.getPrototypeOf, construct = Reflect.construct;
  const toText = String, TypeErrorCtor = TypeError, test = RegExp.prototype.test, apply = Reflect.apply;
  const problem = /BigInt|circular/i;
  const data = parse(input);

  // Code generation: the constructors of every function kind are reachable
  // through .constructor of a function value, so each prototype's property is
  // replaced by a thrower; the globals go.
  const thrower = function () { throw new TypeErrorCtor("code generation from strings is not available in scripts"); };
  const kinds = [function () {}, async function () {}, function* () {}, async function* () {}];
  for (let i = 0; i < kinds.length; i++) {
    defineProperty(getPrototypeOf(kinds[i]), "constructor", { value: thrower, writable: false, enumerable: false, configurable: false });
  }
  delete g.eval; delete g.Function; delete g.WebAssembly; delete g.SharedArrayBuffer; delete g.Atomics;

  // Determinism: sfc32 seeded by the child from seed, tick and trigger name.
  let a = data.seed[0] >>> 0, b = data.seed[1] >>> 0, c = data.seed[2] >>> 0, d = data.seed[3] >>> 0;
  const random = function random() {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  defineProperty(Math, "random", { value: random, writable: true, configurable: true, enumerable: false });
  const RealDate = Date, now = data.now;
  const FixedDate = function Date(...args) {
    if (new.target === undefined) return new RealDate(now).toString();
    return construct(RealDate, args.length === 0 ? [now] : args, new.target);
  };
  FixedDate.prototype = RealDate.prototype;
  FixedDate.now = function now_() { return now; };
  FixedDate.UTC = RealDate.UTC;
  FixedDate.parse = RealDate.parse;
  defineProperty(RealDate.prototype, "constructor", { value: FixedDate, writable: true, configurable: true, enumerable: false });
  defineProperty(g, "Date", { value: FixedDate, writable: true, configurable: true, enumerable: false });

  // Logs: formatted here (under the script's time), capped by the child.
  let open = true;
  const format = function (value) {
    if (typeof value === "string") return value;
    try {
      const text = stringify(value);
      return text === undefined ? toText(value) : text;
    } catch (_) {
      try { return toText(value); } catch (_) { return "[unprintable value]"; }
    }
  };
  const logAt = function (level) {
    return function log(...args) {
      if (!open) return;
      let text = "";
      for (let i = 0; i < args.length && text.length < 65536; i++) text += (i === 0 ? "" : " ") + format(args[i]);
      open = emit(level, text) === true;
    };
  };
  const log = logAt("log");
  g.log = log;
  g.console = { log: log, info: logAt("info"), warn: logAt("warn"), error: logAt("error") };

  // Spec 4 globals.
  const snapshot = data.snapshot;
  g.check = function check(condition) {
    const s = g.storage;
    return scriptCheck(condition, snapshot, s !== null && typeof s === "object" ? s : {});
  };
  g.storage = data.storage;
  g.effects = data.effects;
  g.skip = false;
  g.info = { engineVersion: data.info.engineVersion, semanticVersion: data.info.semanticVersion };
  // The trigger map can be megabytes: parsed only when a script touches it.
  let touched = false;
  const settle = function (value) {
    touched = true;
    defineProperty(g, "triggers", { value: value, writable: true, enumerable: true, configurable: true });
  };
  defineProperty(g, "triggers", {
    get: function () { const value = parse(triggersJson); settle(value); return value; },
    set: function (value) { settle(value); },
    enumerable: true,
    configurable: true,
  });

  const plainObject = function (value) { return value !== null && typeof value === "object" && !isArray(value); };
  const replacer = function (_key, value) {
    return value !== null && typeof value === "object" && isView(value) ? {} : value;
  };
  const rejected = function (error) {
    return error instanceof TypeErrorCtor && apply(test, problem, [toText(error.message)]);
  };

  return function readBack() {
    let storageOut = "{}", storageRejected = false;
    const s = g.storage;
    if (plainObject(s)) {
      try {
        const text = stringify(s, replacer);
        storageOut = text !== undefined && text[0] === "{" ? text : "{}";
      } catch (error) {
        if (!rejected(error)) throw error;
        storageRejected = true;
      }
    }
    let effectsOut = "[";
    const e = g.effects;
    if (isArray(e)) {
      const n = e.length;
      let first = true;
      for (let i = 0; i < n && i < 1000; i++) {
        let text;
        try { text = stringify(e[i], replacer); } catch (_) { text = undefined; }
        if (typeof text !== "string") continue;
        effectsOut += (first ? "" : ",") + text;
        first = false;
      }
    }
    effectsOut += "]";
    let triggersOut = "";
    if (touched) {
      const t = g.triggers;
      if (plainObject(t)) {
        const text = stringify(t, replacer);
        if (typeof text === "string" && text[0] === "{" && text !== triggersJson) triggersOut = text;
      }
    }
    const flags = (storageRejected ? "r" : "-") + (g.skip === true ? "s" : "-");
    return flags + "\u0000" + storageOut + "\u0000" + effectsOut + "\u0000" + triggersOut;
  };
})()`;
