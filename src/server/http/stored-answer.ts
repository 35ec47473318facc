import type { FastifyInstance } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';

/**
 * Response schemas whose answers are built from stored data that the same schema checked on its way
 * in (a draft's flow document: its save validated it). Their answers are serialised without being
 * checked again: at 1,000 nodes that check (zod over every node and edge, then its structure rules)
 * was a large part of the draft's answer on the editor's open, and a stored document that a later,
 * stricter rule would refuse (a limit lowered since) still opens instead of answering a 500; its
 * next save is checked as always. The schema stays the route's: the OpenAPI document describes the
 * answer in full.
 */
const stored = new WeakSet<object>();

/** Marks a response schema as describing stored, already validated data (see above). */
export function storedAnswer<S extends object>(schema: S): S {
  stored.add(schema);
  return schema;
}

/** fastify-type-provider-zod's serializer, except for {@link storedAnswer} schemas: plain JSON for those. */
export const responseSerializer: Parameters<FastifyInstance['setSerializerCompiler']>[0] = (route) =>
  stored.has(route.schema as object) ? (data: unknown) => JSON.stringify(data) : serializerCompiler(route as never);
