/**
 * The stories run (vite.config.ts, project storybook): a server request no fixture answers
 * (.storybook/api-fixtures.ts), or a fixture answer its schema refuses, fails the run with a message
 * naming the request, instead of leaving an error state that nothing notices. Thrown outside the
 * story's test, as an unhandled error: that fails the run however late the request comes (an effect
 * after the story's play and its test's hooks) and cannot pass on a retry; vitest names the file and
 * the story that ran last.
 */
import { onFixtureError } from './api-fixtures';

onFixtureError((message) => {
  setTimeout(() => {
    throw new Error(message);
  });
});
