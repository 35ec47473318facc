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
    // One worker stays ready with its QuickJS module: the first code node after a start or a quiet
    // spell would otherwise wait for a thread and QuickJS to start (2.1 s seen on a busy machine).
    keepWarm: 1,
  };
}
