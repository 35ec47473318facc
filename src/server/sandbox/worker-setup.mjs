// The code evaluated in each new QuickJS context of the code sandbox's worker (./worker.mjs), before
// any user code: plain JavaScript for the same reason as the worker.

/**
 * Run once in each fresh context, before the user's code: builds `console` around one host function
 * that only takes strings, and returns the two helpers the host calls afterwards (one evaluation
 * where there were several: each costs a parse and a compile in QuickJS). `call` runs the user's
 * compiled code (its top-level bindings made anew) and calls its `main` with the parsed inputs (a
 * promise it returns is settled by the host, pending jobs); `serialize` turns the result into JSON
 * here, so the host copies one bounded string.
 */
export const SETUP = `(function (sink, limit) {
  function show(v) {
    if (typeof v === 'string') return v;
    if (v instanceof Error) return String(v);
    if (typeof v === 'function') return '[Function' + (v.name ? ': ' + v.name : '') + ']';
    if (v === undefined || typeof v === 'bigint' || typeof v === 'symbol') return String(v);
    try { var s = JSON.stringify(v); return s === undefined ? String(v) : s; } catch (e) { return String(v); }
  }
  function writer(level) {
    // Cut inside the sandbox: the host copies what it gets, and it keeps no more than the limit anyway.
    return function () { var parts = []; for (var i = 0; i < arguments.length; i++) parts.push(show(arguments[i])); var text = parts.join(' '); sink(level, text.length > limit ? text.slice(0, limit) : text); };
  }
  globalThis.console = { log: writer('log'), info: writer('info'), warn: writer('warn'), error: writer('error'), debug: writer('debug') };
  function call(factory, inputsJson) {
    var main = factory.call(globalThis);
    if (typeof main !== 'function') throw new TypeError('The code must define a function main(inputs) that returns an object');
    return main(JSON.parse(inputsJson));
  }
  function serialize(result, limit) {
    if (result === null || typeof result !== 'object' || Array.isArray(result)) {
      return { kind: 'not-object', type: result === null ? 'null' : Array.isArray(result) ? 'array' : typeof result };
    }
    var json = JSON.stringify(result);
    if (json.length > limit) return { kind: 'too-large', length: json.length };
    return { kind: 'ok', json: json };
  }
  return [call, serialize];
})`;

/**
 * Evaluated in a context meant to be kept (a code's second run on, worker.mjs), before the user's
 * code runs in it: records the built-ins and returns `unchanged`, which says whether a run left them
 * as they were. Kept apart from SETUP: contexts used once pay nothing for it.
 */
export const WATCH = `(function () {
  // What a run may not leave behind for the next run of a kept context (snapshot before the
  // context's first run, unchanged after each run: ~0.1 ms where a new context costs several times
  // that): the global object and the built-ins code reaches for most (prototype pollution lands on
  // these): their prototype, extensibility, number of own properties and the value of each data
  // property. An accessor redefined in place is not compared (its getter could run code). Read with
  // functions taken now, before any user code runs.
  var names = Object.getOwnPropertyNames, getProto = Object.getPrototypeOf, isExtensible = Object.isExtensible, gOPD = Object.getOwnPropertyDescriptor;
  var watched = [globalThis, Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype, Boolean.prototype,
    Symbol.prototype, Error.prototype, Promise.prototype, Map.prototype, Set.prototype, Date.prototype, RegExp.prototype,
    Object, Array, String, Number, Symbol, Error, Promise, Date, RegExp, JSON, Math, Reflect, console];
  var shapes = [];
  {
    for (var i = 0; i < watched.length; i++) {
      var o = watched[i], all = names(o), data = [], values = [];
      for (var j = 0; j < all.length; j++) {
        var d = gOPD(o, all[j]);
        if ('value' in d) { data.push(all[j]); values.push(d.value); }
      }
      shapes.push({ o: o, proto: getProto(o), extensible: isExtensible(o), count: all.length, data: data, values: values });
    }
  }
  return function unchanged() {
    for (var i = 0; i < shapes.length; i++) {
      var s = shapes[i], o = s.o, data = s.data, values = s.values;
      if (getProto(o) !== s.proto || isExtensible(o) !== s.extensible || names(o).length !== s.count) return false;
      for (var j = 0; j < data.length; j++) {
        var v = o[data[j]], was = values[j];
        // NaN (the global's) equals itself here.
        if (v !== was && (v === v || was === was)) return false;
      }
    }
    return true;
  };
})()`;
