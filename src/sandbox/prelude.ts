import { ERROR_MESSAGE_CAP, STORAGE_MAX_CHARS, VALUE_MAX_DEPTH } from "./protocol.ts";

/**
 * The in-isolate half of the sandbox, as source text. It runs once per phase
 * context and answers one driver function `(op, ...)`:
 *
 * - `op 0, input, triggersJson | undefined, source, knownJson | undefined, now, seed0..seed3, logOpen, partsJson | undefined`:
 *   first resets the context after the script before it (the reset of op 2; answers "D"
 *   without running anything when the context could not be brought back to its baseline,
 *   and the child then discards it), then installs the script's globals from `input`
 *   (JSON: snapshot, effects, info, storage delta; `knownHeld` says the snapshot's known
 *   map is the one held here, given by the last `knownJson`; `heldParts` names the snapshot
 *   fields held here, given by the last `partsJson`, frozen), the clock, the random
 *   seed and whether the log is open, and runs the script by indirect eval (global code, as a
 *   classic script: `var` makes globals, `let` stays local). Answers "" or
 *   "E" + message NUL line NUL column: a thrown value is read here, under the
 *   script's time limit, so hostile getters only burn the script's own time.
 * - `op 1`: the read-back: flags NUL storage changes NUL effects NUL triggers
 *   NUL rejection reason, or "E..." when reading threw.
 * - `op 2`: the reset alone; answers true when the context could not be brought
 *   back to its baseline.
 *
 * The reset after a script runs at the start of the next script's op 0 (one
 * entry into the isolate fewer per script), or as op 2 when the phase ends (so
 * that the next phase, of any session, is never charged for it). No script code runs in between:
 * the microtasks a script or its read-back queued have run at the end of op 0
 * and op 1 (isolated-vm runs them before a call returns), so the next script
 * still starts from the baseline, whichever phase or session it belongs to.
 *
 * Why one context per phase is safe: every built-in object is frozen here
 * (with SES-style accessors on the few properties scripts override on their
 * own objects: `toString`, `constructor`, an error's `name` and `message`),
 * so no script can change what the next one sees; the global object is reset
 * to its baseline after every script (extra properties deleted, replaced ones
 * restored; its built-in properties are non-configurable, so a script may
 * assign or shadow them but not delete or redefine them); `WeakRef` and `FinalizationRegistry` are absent (garbage
 * collection must never run script code later, or differ between runs); and
 * the RegExp legacy statics (`RegExp.$1`) are cleared. `storage`, `effects`
 * and the trigger map are built fresh for every script.
 *
 * Storage is kept here as JSON text per key between the phase's scripts, and
 * on into the session's next phase when this context serves it again (the
 * child checks that the delta it is given was made against what this
 * context holds; storage from anything else crosses whole and replaces it): a
 * script gets a proxy whose values are parsed only when read, and the
 * read-back serialises only the keys the script touched, so a script's cost
 * does not grow with storage it does not touch. Values are bounded in depth
 * (VALUE_MAX_DEPTH) and storage in size (STORAGE_MAX_CHARS): a script that
 * breaks either has its storage writes refused, like a BigInt or a cycle.
 *
 * Inputs on the global object (removed here): `__tfLog` a host callback
 * (level, text) -> boolean (false once the phase's log cap is reached) and
 * `__tfCheck`, the bundled `scriptCheck`.
 */
export const PRELUDE = String.raw`(function () {
  "use strict";
  const g = globalThis;
  const emit = g.__tfLog, scriptCheck = g.__tfCheck;
  delete g.__tfLog; delete g.__tfCheck;
  const MAX_DEPTH = ${VALUE_MAX_DEPTH}, MAX_STORAGE = ${STORAGE_MAX_CHARS}, MESSAGE_CAP = ${ERROR_MESSAGE_CAP};
  const SUFFIX = "\n//# sourceURL=trigger-script.js";
  const realEval = g.eval;
  const parse = JSON.parse, stringify = JSON.stringify, isArray = Array.isArray, isView = ArrayBuffer.isView;
  const defineProperty = Object.defineProperty, getPrototypeOf = Object.getPrototypeOf, construct = Reflect.construct;
  const gOPD = Object.getOwnPropertyDescriptor, ownKeys = Reflect.ownKeys, keysOf = Object.keys, hasOwn = Object.hasOwn;
  const freeze = Object.freeze, isExtensible = Object.isExtensible, deleteProperty = Reflect.deleteProperty;
  const reflectGet = Reflect.get, reflectSet = Reflect.set, reflectDefine = Reflect.defineProperty, reflectGOPD = Reflect.getOwnPropertyDescriptor;
  const toText = String, TypeErrorCtor = TypeError, ErrorCtor = Error, SyntaxErrorCtor = SyntaxError, MapCtor = Map, SetCtor = Set, ProxyCtor = Proxy;
  const apply = Reflect.apply, regexExec = RegExp.prototype.exec, split = String.prototype.split, slice = String.prototype.slice;
  const FRAME = /trigger-script\.js:(\d+):(\d+)\)?$/;
  const problem = /BigInt|circular/i;
  const TOO_DEEP = {};
  const LAZY = {};

  // Code generation: the constructors of every function kind are reachable
  // through .constructor of a function value, so each prototype's property is
  // replaced by a thrower; the globals go.
  const thrower = function () { throw new TypeErrorCtor("code generation from strings is not available in scripts"); };
  const kinds = [function () {}, async function () {}, function* () {}, async function* () {}];
  for (let i = 0; i < kinds.length; i++) {
    defineProperty(getPrototypeOf(kinds[i]), "constructor", { value: thrower, writable: false, enumerable: false, configurable: false });
  }
  // WeakRef and FinalizationRegistry: garbage collection would decide what a script sees, and when.
  delete g.eval; delete g.Function; delete g.WebAssembly; delete g.SharedArrayBuffer; delete g.Atomics;
  delete g.WeakRef; delete g.FinalizationRegistry;

  // Determinism: sfc32 seeded per script by the child from seed, tick and trigger name.
  let a = 0, b = 0, c = 0, d = 0;
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
  const RealDate = Date;
  let now = 0;
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

  let snapshot = null;
  // The known map of the snapshots (flags only), kept frozen from call to call: the child sends it
  // when it changed, and no script can change what the next one reads.
  let knownValue = freeze({});
  // The long snapshot fields held the same way (the child sends them when their text changed),
  // frozen through, and filled into each call's snapshot by name.
  let partsValue = new MapCtor();
  const deepFreeze = function (root) {
    const stack = [root];
    while (stack.length > 0) {
      const item = stack.pop();
      if (item === null || typeof item !== "object" || !isExtensible(item)) continue;
      freeze(item);
      const own = keysOf(item);
      for (let i = 0; i < own.length; i++) stack.push(item[own[i]]);
    }
    return root;
  };
  g.check = function check(condition) {
    const s = g.storage;
    return scriptCheck(condition, snapshot, s !== null && typeof s === "object" ? s : {});
  };

  // Built-ins: the properties scripts assign on their own objects become
  // accessors (an assignment on an object that inherits one defines an own
  // property, as before), then every object reachable from the global object
  // is frozen.
  const tame = function (object, key) {
    const desc = gOPD(object, key);
    if (!desc || !("value" in desc) || !desc.configurable) return;
    const value = desc.value;
    defineProperty(object, key, {
      get: function () { return value; },
      set: function (next) {
        if (this === object) throw new TypeErrorCtor("built-in objects are frozen in scripts: cannot assign " + toText(key));
        if (this === null || (typeof this !== "object" && typeof this !== "function")) return;
        defineProperty(this, key, { value: next, writable: true, enumerable: true, configurable: true });
      },
      enumerable: desc.enumerable,
      configurable: false,
    });
  };
  const ObjectProto = Object.prototype;
  for (const key of ownKeys(ObjectProto)) tame(ObjectProto, key);
  tame(Array.prototype, "toString"); tame(Array.prototype, "push");
  tame(getPrototypeOf(thrower), "toString"); tame(getPrototypeOf(thrower), "bind");
  tame(Promise.prototype, "constructor");
  const errors = [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError, AggregateError];
  for (let i = 0; i < errors.length; i++) {
    const proto = errors[i].prototype;
    tame(proto, "constructor"); tame(proto, "name"); tame(proto, "message"); tame(proto, "toString");
  }
  const hidden = [getPrototypeOf(thrower), getPrototypeOf(kinds[1]), getPrototypeOf(kinds[2]), getPrototypeOf(kinds[3]),
    getPrototypeOf([][Symbol.iterator]()), getPrototypeOf(new Map()[Symbol.iterator]()), getPrototypeOf(new Set()[Symbol.iterator]()),
    getPrototypeOf(""[Symbol.iterator]()), getPrototypeOf("a".matchAll(/a/g)), getPrototypeOf(Int8Array),
    (function () { return gOPD(arguments, "callee").get; })(), kinds[2].prototype, kinds[3].prototype];
  try {
    const segments = new Intl.Segmenter().segment("a");
    hidden.push(getPrototypeOf(segments), getPrototypeOf(segments[Symbol.iterator]()));
  } catch (_) {}
  const seen = new SetCtor();
  const pending = hidden;
  for (const key of ownKeys(g)) {
    const desc = gOPD(g, key);
    if ("value" in desc) pending.push(desc.value); else pending.push(desc.get, desc.set);
  }
  while (pending.length > 0) {
    const item = pending.pop();
    if (item === null || (typeof item !== "object" && typeof item !== "function") || item === g || seen.has(item)) continue;
    seen.add(item);
    pending.push(getPrototypeOf(item));
    for (const key of ownKeys(item)) {
      const desc = gOPD(item, key);
      if ("value" in desc) pending.push(desc.value); else pending.push(desc.get, desc.set);
    }
  }
  for (const item of seen) freeze(item);

  // Storage: JSON text per key, the key order and the approximate JSON size.
  let cache = new MapCtor(), order = [], chars = 2;
  const cost = function (key, json) { return key.length + json.length + 4; };
  const syncStorage = function (delta) {
    if (delta.full) { cache = new MapCtor(); order = []; chars = 2; }
    for (let i = 0; i < delta.del.length; i++) {
      const key = delta.del[i], json = cache.get(key);
      if (json !== undefined) { chars -= cost(key, json); cache.delete(key); }
    }
    const keys = keysOf(delta.set);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i], old = cache.get(key), json = delta.set[key];
      if (old !== undefined) chars -= cost(key, old);
      chars += cost(key, json);
      cache.set(key, json);
    }
    if (delta.order !== null) order = delta.order;
  };

  // A script's storage: a proxy over a plain object built at first use, values parsed when read.
  let target = null, proxy = null, touched = null;
  const materialize = function (key) {
    if (typeof key !== "string") return;
    touched.add(key);
    const desc = gOPD(target, key);
    if (desc !== undefined && desc.value === LAZY) {
      defineProperty(target, key, { value: parse(cache.get(key)), writable: true, enumerable: true, configurable: true });
    }
  };
  const handler = freeze({
    get: function (t, key, receiver) { materialize(key); return reflectGet(t, key, receiver); },
    set: function (t, key, value, receiver) { if (typeof key === "string") touched.add(key); return reflectSet(t, key, value, receiver); },
    defineProperty: function (t, key, desc) { materialize(key); return reflectDefine(t, key, desc); },
    deleteProperty: function (t, key) { if (typeof key === "string") touched.add(key); return deleteProperty(t, key); },
    getOwnPropertyDescriptor: function (t, key) { materialize(key); return reflectGOPD(t, key); },
  });
  // storage and triggers stay accessors on the global object (redefining a global property costs
  // V8 more than the rest of a small script): the getter builds the script's value on first use.
  let storageValue = LAZY;
  const storageGetter = function () {
    if (storageValue !== LAZY) return storageValue;
    target = {};
    for (let i = 0; i < order.length; i++) {
      defineProperty(target, order[i], { value: LAZY, writable: true, enumerable: true, configurable: true });
    }
    touched = new SetCtor();
    proxy = new ProxyCtor(target, handler);
    storageValue = proxy;
    return proxy;
  };
  const storageSetter = function (value) { storageValue = value; };

  // The trigger map can be megabytes: parsed only when a script touches it.
  let triggersJson = "{}", triggersTouched = false, triggersValue = LAZY;
  const triggersGetter = function () {
    if (triggersValue === LAZY) { triggersValue = parse(triggersJson); triggersTouched = true; }
    return triggersValue;
  };
  const triggersSetter = function (value) { triggersTouched = true; triggersValue = value; };

  defineProperty(g, "storage", { get: storageGetter, set: storageSetter, enumerable: true, configurable: true });
  defineProperty(g, "triggers", { get: triggersGetter, set: triggersSetter, enumerable: true, configurable: true });
  g.effects = [];
  g.skip = false;
  g.info = null;

  // The baseline of the global object. Every property but the five a script is given fresh each
  // run (storage, triggers, effects, skip, info) is made non-configurable: V8 then guarantees it
  // stays, with its attributes, and a writable one can only get a new value or become read-only,
  // which the restore below undoes or detects (a script may still assign any global, or shadow it
  // with a top-level var). So the reset need not read every descriptor: it reads the five, counts
  // the keys (with all baseline keys present, a count above the baseline's means added ones) and
  // writes every writable global back with straight-line compiled stores, which throw (strict
  // mode) on one a script made read-only.
  const perScript = ["storage", "triggers", "effects", "skip", "info"];
  const perScriptBase = [];
  for (let i = 0; i < perScript.length; i++) perScriptBase.push(gOPD(g, perScript[i]));
  const baseKeys = ownKeys(g);
  const baseCount = baseKeys.length;
  const baseSet = new SetCtor(baseKeys);
  const restoreKeys = [], restoreValues = [];
  for (let i = 0; i < baseKeys.length; i++) {
    const key = baseKeys[i];
    if (perScript.indexOf(key) >= 0) continue;
    const desc = gOPD(g, key);
    if (desc.configurable) {
      desc.configurable = false;
      defineProperty(g, key, desc);
    }
    if ("value" in desc && desc.writable) { restoreKeys.push(key); restoreValues.push(desc.value); }
  }
  let restoreCode = "(function (g, v) {\n\"use strict\";\n";
  for (let i = 0; i < restoreKeys.length; i++) {
    const key = restoreKeys[i];
    restoreCode += typeof key === "string" ? "g[" + stringify(key) + "] = v[" + i + "];\n" : "";
  }
  const restoreNamed = realEval(restoreCode + "})");
  const restoreSymbols = [];
  for (let i = 0; i < restoreKeys.length; i++) if (typeof restoreKeys[i] !== "string") restoreSymbols.push(i);
  freeze(restoreValues); freeze(restoreSymbols);
  const baseProto = getPrototypeOf(g);
  const EMPTY = /(?:)/;

  const describe = function (error) {
    let message;
    try {
      if (error instanceof ErrorCtor) message = toText(error.name) + ": " + toText(error.message);
      else if (typeof error === "string") message = "uncaught " + error;
      else {
        let text;
        try { text = stringify(error); } catch (_) { text = undefined; }
        message = "uncaught " + (text === undefined ? toText(error) : text);
      }
    } catch (_) {
      message = "uncaught value";
    }
    if (message.length > MESSAGE_CAP) message = apply(slice, message, [0, MESSAGE_CAP]) + " [message cut at " + MESSAGE_CAP + " characters]";
    let line = "", column = "", syntax = "";
    try {
      const stack = error instanceof ErrorCtor ? error.stack : undefined;
      if (typeof stack === "string") {
        const lines = apply(split, stack, ["\n"]);
        for (let i = 0; i < lines.length; i++) {
          const match = apply(regexExec, FRAME, [lines[i]]);
          if (match !== null) { line = match[1]; column = match[2]; break; }
        }
      }
      if (line === "" && error instanceof SyntaxErrorCtor) syntax = "s";
    } catch (_) {}
    return "E" + syntax + "\u0000" + message + "\u0000" + line + "\u0000" + column;
  };

  // Serialisation with a depth bound: the replacer knows each holder's depth.
  let depths = null;
  const replacer = function (_key, value) {
    if (value !== null && typeof value === "object") {
      if (isView(value)) return {};
      const parent = depths.get(this);
      const depth = (parent === undefined ? 0 : parent) + 1;
      if (depth > MAX_DEPTH) throw TOO_DEEP;
      depths.set(value, depth);
    }
    return value;
  };
  const serialise = function (value) {
    depths = new MapCtor();
    try { return stringify(value, replacer); } finally { depths = null; }
  };
  const plainObject = function (value) { return value !== null && typeof value === "object" && !isArray(value); };
  const deep = function (what) { return what + " is nested deeper than " + MAX_DEPTH + " levels, the limit for values a script hands back"; };

  // Answers [changesJson, rejection]: changes "" when storage is unchanged; rejection "" when accepted.
  const readStorage = function () {
    const desc = gOPD(g, "storage");
    if (desc !== undefined && desc.get === storageGetter && storageValue === LAZY) return ["", ""];
    const s = g.storage;
    const keys = [], texts = [];
    const reject = function (key, error) {
      if (error === TOO_DEEP) return deep("storage." + key);
      if (error instanceof TypeErrorCtor && apply(regexExec, problem, [toText(error.message)]) !== null) return "storage held a BigInt or a circular value";
      throw error;
    };
    if (s === proxy && proxy !== null) {
      const own = ownKeys(target);
      for (let i = 0; i < own.length; i++) {
        const key = own[i];
        if (typeof key !== "string") continue;
        const kd = gOPD(target, key);
        if (!kd.enumerable) continue;
        let json;
        if (!touched.has(key) || kd.value === LAZY) json = cache.get(key);
        else {
          try { json = serialise(target[key]); } catch (error) { return ["", reject(key, error)]; }
        }
        if (typeof json === "string") { keys.push(key); texts.push(json); }
      }
    } else if (plainObject(s)) {
      const own = keysOf(s);
      for (let i = 0; i < own.length; i++) {
        const key = own[i];
        let json;
        try { json = serialise(s[key]); } catch (error) { return ["", reject(key, error)]; }
        if (typeof json === "string") { keys.push(key); texts.push(json); }
      }
    }
    let next = 2, changed = "", orderChanged = keys.length !== order.length;
    const present = new SetCtor();
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i], json = texts[i];
      present.add(key);
      next += cost(key, json);
      if (!orderChanged && order[i] !== key) orderChanged = true;
      if (cache.get(key) !== json) changed += (changed === "" ? "" : ",") + stringify(key) + ":" + json;
    }
    if (changed === "" && !orderChanged) return ["", ""];
    if (next > MAX_STORAGE && next > chars) {
      return ["", "storage would hold " + next + " characters of JSON, more than its limit of " + MAX_STORAGE];
    }
    const gone = [];
    for (let i = 0; i < order.length; i++) if (!present.has(order[i])) gone.push(order[i]);
    for (let i = 0; i < gone.length; i++) cache.delete(gone[i]);
    for (let i = 0; i < keys.length; i++) cache.set(keys[i], texts[i]);
    const text = '{"o":' + (orderChanged ? stringify(keys) : "null") + ',"s":{' + changed + '},"d":' + stringify(gone) + "}";
    if (orderChanged) order = keys;
    chars = next;
    return [text, ""];
  };

  const readBack = function () {
    try {
      const stored = readStorage();
      let effectsOut = "[";
      const e = g.effects;
      if (isArray(e)) {
        const n = e.length;
        let first = true;
        for (let i = 0; i < n && i < 1000; i++) {
          let text;
          try { text = serialise(e[i]); } catch (error) {
            if (error === TOO_DEEP) throw new RangeError(deep("effects[" + i + "]"));
            text = undefined;
          }
          if (typeof text !== "string") continue;
          effectsOut += (first ? "" : ",") + text;
          first = false;
        }
      }
      effectsOut += "]";
      let triggersOut = "";
      if (triggersTouched) {
        const t = g.triggers;
        if (plainObject(t)) {
          let text;
          try { text = serialise(t); } catch (error) {
            if (error === TOO_DEEP) throw new RangeError(deep("the trigger map"));
            throw error;
          }
          if (typeof text === "string" && text[0] === "{" && text !== triggersJson) triggersOut = text;
        }
      }
      const flags = (stored[1] !== "" ? "r" : "-") + (g.skip === true ? "s" : "-");
      return flags + "\u0000" + stored[0] + "\u0000" + effectsOut + "\u0000" + triggersOut + "\u0000" + stored[1];
    } catch (error) {
      return describe(error);
    }
  };

  const reset = function () {
    let dirty = false;
    // The five per-script globals: effects, skip and info get new values each run, so only their
    // kind of property must be back; storage and triggers must be the accessors again.
    for (let i = 0; i < perScriptBase.length; i++) {
      const key = perScript[i], base = perScriptBase[i], desc = gOPD(g, key);
      const ok = desc !== undefined && desc.enumerable === base.enumerable && desc.configurable === base.configurable &&
        ("value" in base
          ? "value" in desc && desc.writable === true
          : desc.get === base.get && desc.set === base.set);
      if (!ok && !reflectDefine(g, key, base)) dirty = true;
    }
    // Every baseline key is present now (the others cannot be deleted): more keys are added ones.
    const keys = ownKeys(g);
    if (keys.length !== baseCount) {
      for (let i = 0; i < keys.length; i++) {
        if (!baseSet.has(keys[i]) && !deleteProperty(g, keys[i])) dirty = true;
      }
    }
    try {
      restoreNamed(g, restoreValues);
      for (let i = 0; i < restoreSymbols.length; i++) {
        const at = restoreSymbols[i];
        if (!reflectSet(g, restoreKeys[at], restoreValues[at])) dirty = true;
      }
    } catch (_) {
      // A global the script made read-only (with another value, or not): the context cannot come back.
      dirty = true;
    }
    if (getPrototypeOf(g) !== baseProto || !isExtensible(g)) dirty = true;
    apply(regexExec, EMPTY, [""]);
    target = null; proxy = null; touched = null; storageValue = LAZY;
    triggersTouched = false; triggersValue = LAZY; snapshot = null; open = false;
    return dirty;
  };

  // Whether a script ran since the last reset.
  let used = false;
  const run = function (input, triggersText, source, knownText, time, s0, s1, s2, s3, logOpen, partsText) {
    if (used && reset()) return "D";
    used = true;
    const data = parse(input);
    syncStorage(data.storage);
    if (typeof triggersText === "string") triggersJson = triggersText;
    if (typeof knownText === "string") knownValue = freeze(parse(knownText));
    if (typeof partsText === "string") {
      const all = parse(partsText), names = keysOf(all), next = new MapCtor();
      for (let i = 0; i < names.length; i++) next.set(names[i], deepFreeze(all[names[i]]));
      partsValue = next;
    }
    snapshot = data.snapshot;
    if (snapshot !== null && typeof snapshot === "object") {
      if (data.knownHeld === true) snapshot.known = knownValue;
      const names = data.heldParts;
      if (isArray(names)) {
        for (let i = 0; i < names.length; i++) {
          defineProperty(snapshot, names[i], { value: partsValue.get(names[i]), writable: true, enumerable: true, configurable: true });
        }
      }
    }
    now = time;
    a = s0 >>> 0; b = s1 >>> 0; c = s2 >>> 0; d = s3 >>> 0;
    open = logOpen === true;
    g.effects = data.effects;
    g.skip = false;
    g.info = freeze({ engineVersion: data.info.engineVersion, semanticVersion: data.info.semanticVersion });
    try {
      realEval(source + SUFFIX);
      return "";
    } catch (error) {
      return describe(error);
    }
  };

  return function driver(op, input, triggersText, source, knownText, time, s0, s1, s2, s3, logOpen, partsText) {
    if (op === 0) return run(input, triggersText, source, knownText, time, s0, s1, s2, s3, logOpen, partsText);
    if (op === 1) return readBack();
    used = false;
    return reset();
  };
})()`;
