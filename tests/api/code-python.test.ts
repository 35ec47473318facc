import { beforeAll, describe, expect, it } from 'vitest';
import type { FlowDocument } from '../../schemas/flow';
import { useStudio } from './harness';
import { createApp, flow, parseSse, RUNS, textInput } from './runs-kit';
import { expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// A workflow with a Python code node (issue 26) through the real server: Dify's `def main(...) -> dict`
// gets the start's text as a keyword argument, its dict becomes the node's typed outputs, the
// checklist accepts it (publish), and a Python error shows the traceback's last lines.

const h = useStudio();
let f: Fixture;
const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });
const owner = () => ({ token: f.u.owner.token, workspaceId: f.wsA });

const PYTHON = `import re

def main(text: str) -> dict:
    words = re.findall(r"[a-z']+", text.lower())
    print("words:", len(words))
    return {
        "upper": text.upper(),
        "words": words,
        "count": len(words),
    }
`;

const pythonFlow = (code = PYTHON, outputs = [
  { name: 'upper', type: 'string' },
  { name: 'words', type: 'array[string]' },
  { name: 'count', type: 'number' },
]): FlowDocument =>
  flow(
    [
      ['s', 'start', { variables: [textInput('q')] }],
      ['c', 'code', { language: 'python3', inputs: [{ name: 'text', selector: ['s', 'q'] }], code, outputs }],
      ['e', 'end', { outputs: outputs.map((o) => ({ name: o.name, selector: ['c', o.name] })) }],
    ],
    [
      ['s', 'c'],
      ['c', 'e'],
    ],
  );

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'python');
});

describe('a workflow with a Python code node', () => {
  it('runs main with the inputs as keyword arguments and passes its typed outputs on', async () => {
    const app = await createApp(h, f.u.member.token, f.wsA, 'Python flow', pythonFlow());
    // The first Python job loads the interpreter in its worker: seconds on a loaded machine.
    const r = await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: { q: "Weft runs Python's code" } } });
    const events = parseSse(r.raw.body);
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', outputs: { upper: "WEFT RUNS PYTHON'S CODE", words: ['weft', 'runs', "python's", 'code'], count: 4 } });
    const runId = (events[0] as { runId: string }).runId;
    const detail = expectOk(await h.call('GET', `${RUNS(app)}/runs/${runId}`, member()));
    const node = detail.nodes.find((n: { node_id: string }) => n.node_id === 'c');
    expect(node).toMatchObject({ status: 'succeeded', inputs: { 's.q': "Weft runs Python's code" }, outputs: { count: 4 } });

    // The checklist knows Python's main: the app publishes.
    const published = await h.call('POST', `${RUNS(app)}/publish`, { ...owner(), body: { version: 'v1.0.0' } });
    expect(published.status, published.raw.body).toBe(200);
  }, 120_000);

  it('fails the node with the traceback’s last lines, the user’s line and no host paths', async () => {
    const code = 'def main(text: str) -> dict:\n    value = int(text)\n    return {"upper": str(value)}\n';
    const app = await createApp(h, f.u.member.token, f.wsA, 'Python error', pythonFlow(code, [{ name: 'upper', type: 'string' }]));
    const r = await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: { q: 'not a number' } } });
    const events = parseSse(r.raw.body);
    const failed = events.find((e) => e.type === 'node_failed') as { error: { code: string; message: string } } | undefined;
    expect(failed?.error.code).toBe('SANDBOX-ERROR');
    expect(failed?.error.message).toContain('ValueError: invalid literal for int() with base 10');
    expect(failed?.error.message).toContain('line 2');
    expect(failed?.error.message).not.toMatch(/node_modules|\/work\/|pyodide/);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed' });
  }, 120_000);

  it('checks the dict against the declared output types, as for JavaScript', async () => {
    const code = 'def main(text: str) -> dict:\n    return {"upper": 42}\n';
    const app = await createApp(h, f.u.member.token, f.wsA, 'Python types', pythonFlow(code, [{ name: 'upper', type: 'string' }]));
    const r = await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: { q: 'x' } } });
    const failed = parseSse(r.raw.body).find((e) => e.type === 'node_failed') as { error: { code: string; message: string } } | undefined;
    expect(failed?.error).toMatchObject({ code: 'CODE-OUTPUT-TYPE', message: 'The output "upper" should be string but the code returned number' });
  }, 120_000);

  it('refuses to publish a Python node without def main', async () => {
    const app = await createApp(h, f.u.member.token, f.wsA, 'Python no main', pythonFlow('def run(text):\n    return {"upper": text}\n', [{ name: 'upper', type: 'string' }]));
    const published = await h.call('POST', `${RUNS(app)}/publish`, { ...owner(), body: { version: 'v1.0.0' } });
    expect(published.status).toBeGreaterThanOrEqual(400);
    expect(published.raw.body).toContain('mainMissingPython');
  });
});
