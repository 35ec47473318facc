/** The caller's own page (/operation/my): one call, GET /console/my. */
import { MyOverview } from '../../schemas/my';
import { call, type Endpoint, type RequestOptions } from './request';

export const myEndpoints = {
  overview: { method: 'GET', url: '/api/v1/console/my', name: 'console.my' },
} as const satisfies Record<string, Endpoint>;

export const getMyOverview = (opts?: Omit<RequestOptions, 'responseType' | 'schema'>) => call(MyOverview, myEndpoints.overview, {}, opts);
