export * from './sandbox';
export { sandboxOptions } from './options';
export { createSandboxService } from './service';
