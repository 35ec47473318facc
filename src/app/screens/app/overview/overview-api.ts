/**
 * What the overview tab needs from the server, behind a context so stories and tests can pass an
 * in-memory implementation (memory-overview-api.ts). The default is the real API (src/api/app-api.ts).
 */
import { createContext, useContext } from 'react';
import type { Overview } from '../../../../../schemas/app-api';
import type { LogPeriod } from '../../../../../schemas/run-api';
import { getOverview } from '../../../../api/app-api';

export interface OverviewApi {
  /** The figures per day over `period`, days cut in the time zone `tz`. */
  get(appId: string, workspaceId: string, period: LogPeriod, tz: string): Promise<Overview>;
}

export const apiOverviewApi: OverviewApi = {
  get: (appId, workspaceId, period, tz) => getOverview(workspaceId, appId, { period, tz }, { reaction: 'silent' }),
};

export const OverviewApiContext = createContext<OverviewApi>(apiOverviewApi);
export const useOverviewApi = () => useContext(OverviewApiContext);
