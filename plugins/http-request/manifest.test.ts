import { describe, expect, it } from 'vitest';
import { flow, handlesOf, issueKeys, node, outputsOf } from '../../tests/plugins/helpers';

const http = (config: Record<string, unknown>) => flow('workflow', [node('start', 'start', { variables: [{ name: 'u' }] }), node('h', 'http-request', config)], [['start', 'h']]);

describe('http-request', () => {
  it('needs a URL, literal ones with http(s)', () => {
    expect(issueKeys(http({}), 'h')).toEqual(['issues.urlEmpty']);
    expect(issueKeys(http({ url: 'ftp://x' }), 'h')).toEqual(['issues.urlInvalid']);
    expect(issueKeys(http({ url: '{{#start.u#}}/items' }), 'h')).toEqual([]);
    expect(issueKeys(http({ url: 'https://api.example.com/{{#start.u#}}' }), 'h')).toEqual([]);
  });

  it('checks headers, JSON bodies, binary files and authorization', () => {
    const doc = http({
      method: 'get',
      url: 'https://x.test',
      headers: [{ key: 'A', value: '1' }, { key: 'a', value: '2' }, { key: '', value: '3' }],
      bodyType: 'json',
      json: '{ not json',
      authType: 'api-key',
      apiKeyName: '',
    });
    expect(issueKeys(doc, 'h')).toEqual([
      'issues.headerDuplicate',
      'issues.headerKeyEmpty',
      'issues.jsonInvalid',
      'issues.bodyIgnored',
      'issues.tokenMissing',
      'issues.apiKeyNameMissing',
    ]);
    expect(issueKeys(http({ method: 'post', url: 'https://x.test', bodyType: 'binary', authType: 'basic' }), 'h')).toEqual([
      'issues.binaryMissing',
      'issues.usernameMissing',
    ]);
  });

  it('has body, status, headers and files outputs and a fail branch on request', () => {
    expect(outputsOf(http({ url: 'https://x.test' }), 'h').map((p) => `${p.name}:${p.type}`)).toEqual([
      'body:string',
      'status_code:number',
      'headers:object',
      'files:array[file]',
    ]);
    expect(handlesOf(node('h', 'http-request', { errorStrategy: 'fail-branch' }))).toEqual(['source', 'fail-branch']);
    expect(node('h', 'http-request').config).toMatchObject({ timeoutSeconds: 120, retryEnabled: false, maxRetries: 3, retryIntervalMs: 1000 });
  });
});

describe('http-request error outputs', () => {
  it('adds error_message and error_code when a failure does not stop the run', () => {
    const names = (errorStrategy: string) => outputsOf(http({ url: 'https://x.test', errorStrategy }), 'h').map((p) => p.name);
    expect(names('none')).not.toContain('error_message');
    expect(names('fail-branch').slice(-2)).toEqual(['error_message', 'error_code']);
    expect(names('default-value').slice(-2)).toEqual(['error_message', 'error_code']);
  });
});
