export * from './sandbox';
export { sandboxOptions } from './options';
