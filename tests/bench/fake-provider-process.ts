/**
 * The fake OpenAI-compatible provider of the API tests in a process of its own, for the benchmarks:
 * a real provider is never in the server's process, so the server's work (database, SDK) overlaps
 * the provider's network wait instead of delaying the provider itself. Prints its base URL as one
 * JSON line and serves until its parent goes away.
 */
import { fakeOpenAi } from '../api/fake-providers';

const fake = await fakeOpenAi();
process.stdout.write(`${JSON.stringify({ baseUrl: fake.baseUrl })}\n`);
const quit = () => void fake.close().finally(() => process.exit(0));
process.stdin.on('end', quit).on('close', quit).resume();
process.on('SIGTERM', quit);
