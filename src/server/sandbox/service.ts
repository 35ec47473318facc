import { NodeExecutionError, type SandboxService } from '../../plugin-sdk/executor';
import type { CodeSandbox, SandboxCaller } from './sandbox';

/**
 * The executors' view of the sandbox (`services.sandbox`), bound to the run's caller (the executor
 * never names a tenant or user): outputs on success, a {@link NodeExecutionError} with the
 * sandbox's code otherwise (detail: line and console logs).
 */
export function createSandboxService(sandbox: CodeSandbox, caller?: SandboxCaller): SandboxService {
  return {
    async run(job, { signal, onQueue }) {
      const outcome = await sandbox.run({ ...job, ...(caller ? { caller } : {}) }, { signal, ...(onQueue ? { onQueue } : {}) });
      if (outcome.ok) return outcome.outputs;
      const { code, message, line } = outcome.error;
      throw new NodeExecutionError(code, line !== undefined ? `${message} (line ${line})` : message, {
        ...(line !== undefined ? { line } : {}),
        logs: outcome.logs,
      });
    },
  };
}
