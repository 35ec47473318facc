/**
 * Names a route plugin for Fastify and avvio. An unnamed plugin (the arrow functions the route
 * factories return) makes Fastify look for it among the exports of every module in require.cache,
 * twice per register: some 60 plugins over thousands of modules, ~60 ms of CPU per studio start
 * under the test runner (every API test file starts one); avvio then names it by its source text.
 */
export function named<T extends (...args: never[]) => unknown>(name: string, plugin: T): T {
  Object.defineProperty(plugin, Symbol.for('fastify.display-name'), { value: name });
  Object.defineProperty(plugin, 'name', { value: name });
  return plugin;
}
