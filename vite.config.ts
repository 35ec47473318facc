/// <reference types="vitest/config" />
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';

const alias = {
  '@schemas': path.resolve(import.meta.dirname, 'schemas'),
  '@': path.resolve(import.meta.dirname, 'src'),
};

export default defineConfig({
  plugins: [react()],
  resolve: { alias },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/config.json': 'http://127.0.0.1:3000' },
  },
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 1500 },
  worker: { format: 'es' },
  // Pre-bundled up front: discovered late (inside lazy routes and stories), a cold-cache browser test
  // run would re-optimise mid-run, reload the page and fail the stories that were loading.
  optimizeDeps: {
    include: [
      '@xyflow/react',
      'lucide-react',
      'elkjs/lib/elk-api',
      'elkjs/lib/elk.bundled.js',
      'immer',
      'yaml',
      'zustand',
      'zustand/vanilla',
      'zustand/traditional',
      'zustand/shallow',
    ],
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'schemas/**/*.test.ts', 'plugins/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.{ts,tsx}', 'tests/plugins/**/*.test.{ts,tsx}', 'tests/engine/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['tests/unit/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/api/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        // Every story in stories/ and src/ runs as a test (render + play) in Debian's Chromium.
        extends: true,
        plugins: [storybookTest({ configDir: path.join(import.meta.dirname, '.storybook') })],
        test: {
          name: 'storybook',
          // A story's play function races dialog animations on a loaded machine; one retry tells a
          // flake from a failure (the report still lists the retried test).
          retry: 1,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: {
                executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
                args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
              },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
