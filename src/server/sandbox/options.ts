import type { Settings } from '../settings';
import type { CodeSandboxOptions } from './sandbox';

/** The sandbox's limits from the operator's settings (WEFT_SANDBOX_*). */
export function sandboxOptions(settings: Settings): CodeSandboxOptions {
  return {
    maxWorkers: settings.sandboxWorkers,
    ...(settings.sandboxTenantConcurrency ? { maxPerTenant: settings.sandboxTenantConcurrency } : {}),
    ...(settings.sandboxUserConcurrency ? { maxPerUser: settings.sandboxUserConcurrency } : {}),
    queueTimeoutMs: settings.sandboxQueueTimeoutMs,
    maxTimeoutMs: settings.sandboxMaxTimeoutMs,
    // Jobs name no memory of their own: the setting is both the default and the cap.
    defaultMemoryMb: settings.sandboxMemoryMb,
    maxMemoryMb: settings.sandboxMemoryMb,
  };
}
