import { z } from 'zod';

/**
 * The probes of a running server (no token): `GET /healthz` says the process is up and answering,
 * `GET /readyz` whether it can do its work (database answering, a code sandbox ready, not stopping).
 * A load balancer or orchestrator sends traffic on readiness and restarts on liveness.
 */
export const Liveness = z.object({
  status: z.literal('up'),
  /** Seconds since the process started. */
  uptime_s: z.number(),
});
export type Liveness = z.infer<typeof Liveness>;

export const Readiness = z.object({
  ready: z.boolean(),
  /** `ready` when a query answered within the probe's time, else `unavailable`. */
  database: z.enum(['ready', 'unavailable']),
  /** `ready` once a code sandbox worker with its QuickJS module is up; `starting` before. */
  sandbox: z.enum(['ready', 'starting']),
  /** True while the server shuts down (it finishes or hands back its work and takes no new one). */
  stopping: z.boolean(),
});
export type Readiness = z.infer<typeof Readiness>;
