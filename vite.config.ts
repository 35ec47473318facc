/// <reference types="vitest/config" />
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vite';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { weftClientBuild } from './scripts/vite-client-build.mjs';

const alias = {
  '@schemas': path.resolve(import.meta.dirname, 'schemas'),
  '@': path.resolve(import.meta.dirname, 'src'),
};

// Unit tests. A `.test.tsx` file runs in jsdom, a `.test.ts` file in Node unless listed in domUnitTests
// (plain TypeScript that still needs a DOM: fetch wrappers, storage, i18n detection). Files share one
// module graph per worker (no per-file reload of React, Radix, jsdom: 5 minutes down to 1 on two
// cores), except files that call vi.mock (a shared graph could hand them a module another file
// imported unmocked) or say `unit-isolated` (they test a module's first start): those run on their own,
// each in a fresh worker and jsdom (a second or two of CPU apiece). A test that only needs a module's
// functions answered differently spies on them instead (tests/unit/replace-exports.ts) and stays shared.
const unitRoots = ['src', 'schemas', 'plugins', 'tests/unit', 'tests/plugins', 'tests/engine'];
const domUnitTests = [
  'src/api/files.test.ts',
  'src/api/reactions.test.ts',
  'src/app/guards.test.ts',
  'src/app/session.test.ts',
  'src/canvas/commands/manager.test.ts',
  'src/i18n/i18n.test.ts',
];
const unitFiles = unitRoots.flatMap((dir) =>
  fs
    .readdirSync(path.join(import.meta.dirname, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.test\.tsx?$/.test(f) && !f.includes('node_modules'))
    .map((f) => path.posix.join(dir, f.split(path.sep).join('/'))),
);
const isolated = unitFiles.filter((f) => /vi\.mock\(|unit-isolated/.test(fs.readFileSync(path.join(import.meta.dirname, f), 'utf8')));
const inDom = (f: string) => f.endsWith('.tsx') || domUnitTests.includes(f);
// Storybook's plugin indexes every story file (a Babel parse each: 1–2 s of CPU, more on a loaded
// machine) when its project is set up, even when a run names only other projects: the project is left
// out when `--project` names only others (`vitest run --project api`, unit, e2e: scripts/test.mjs).
const projectFilters = process.argv.flatMap((a, i, all) => (a === '--project' ? [all[i + 1] ?? ''] : a.startsWith('--project=') ? [a.slice('--project='.length)] : []));
const withStories = projectFilters.length === 0 || projectFilters.some((p) => p.includes('storybook') || /[*?!{[]/.test(p));

export default defineConfig({
  plugins: [react(), weftClientBuild()],
  resolve: { alias },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/config.json': 'http://127.0.0.1:3000' },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Above Vite's 500 kB are only chunks that load in the editor, never on a first load: Monaco's
    // TypeScript worker (6.9 MB) and editor API (2.7 MB), single modules that cannot be split, and
    // ELK's layout (1.5 MB). What the first load carries is printed by scripts/vite-client-build.mjs
    // on every build and measured page by page by `npm run bench:portal-size`.
    chunkSizeWarningLimit: 7500,
    rolldownOptions: {
      // Rolldown's "plugins took n s" notice: on a loaded machine it fires on every build, about
      // callbacks that only waited for the CPU.
      checks: { bundlerTimings: false },
    },
  },
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
    // Vitest's default in a run is one worker fewer than the cores: one worker on CI's two cores, with
    // the other core idle while a file waits on PGlite, a server or jsdom.
    maxWorkers: Math.max(2, os.availableParallelism()),
    projects: [
      {
        // Plain TypeScript (engine, server, schemas, stores).
        extends: true,
        test: {
          name: 'unit',
          include: unitFiles.filter((f) => !inDom(f) && !isolated.includes(f)),
          environment: 'node',
          isolate: false,
        },
      },
      {
        // Components, and the few .ts tests that need a DOM.
        extends: true,
        test: {
          name: 'unit-dom',
          include: unitFiles.filter((f) => inDom(f) && !isolated.includes(f)),
          environment: 'jsdom',
          // A component test types and clicks through screens: seconds on a loaded machine. A test
          // that times out keeps typing into the next one's document, so the margin is wide.
          testTimeout: 20_000,
          setupFiles: ['tests/unit/setup.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-isolated',
          include: isolated,
          environment: 'jsdom',
          testTimeout: 20_000,
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
          // WEFT_API_CPU=<file>: each file's wall time and CPU appended to <file> (tests/api/cpu-per-file.ts).
          setupFiles: process.env.WEFT_API_CPU ? ['tests/api/cpu-per-file.ts'] : [],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // Each file starts its own database and server; the modules (Fastify, drizzle, the AI SDK,
          // PGlite's loader) load once per worker instead of once per file.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          // One retry, as the stories have: at three files at a time three runs here each had one different
          // step that a slow machine made miss (a publish past 20 s, a tab on /login, the "+ after" menu); the
          // report still lists a retried test. A test that fails twice fails the run.
          retry: 1,
          // expect.poll waits up to 1 s by default: too short for a page reload on a loaded machine (three
          // files run at once: load 10–12 on CI's two cores; a publish seen after 20 s failed a run).
          expect: { poll: { timeout: 45_000 } },
          hookTimeout: 180_000,
          // Three files at a time (each with its own studio and browser) on CI's two cores: a file spends
          // most of its time waiting (pages settling, streams, polls). Measured: console-layout and
          // console-errors took 91 s of CPU (user + sys, browsers and servers included) for 323 s of wall
          // time on a loaded machine, ~109 s of wall time on a quiet one: well under one core per file.
          maxWorkers: 3,
          // A worker keeps its module graph (playwright-core, the helpers) and its Chromium from one file
          // to the next (tests/e2e/server.ts sharedBrowser): each file still starts its own studio and
          // works in browser contexts of its own, which it closes at its end (releaseBrowser).
          isolate: false,
          // One migrated, seeded data directory copied for every studio (tests/e2e/server.ts).
          globalSetup: ['tests/e2e/global-setup.ts'],
        },
      },
      ...(withStories ? [storiesProject()] : []),
    ],
  },
});

function storiesProject(): TestProjectInlineConfiguration {
  return {
    // Every story in stories/ and src/ runs as a test (render + play) in Debian's Chromium.
    extends: true,
    plugins: [storybookTest({ configDir: path.join(import.meta.dirname, '.storybook') })],
    test: {
      name: 'storybook',
      // Fails the run on a server request no Storybook fixture answers (.storybook/api-fixtures.ts).
      setupFiles: ['.storybook/vitest.setup.ts'],
      // A story's play function races dialog animations on a loaded machine; one retry tells a
      // flake from a failure (the report still lists the retried test).
      retry: 1,
      // All story files in one page's module graph: Storybook, React and Radix load once.
      isolate: false,
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
  };
}
