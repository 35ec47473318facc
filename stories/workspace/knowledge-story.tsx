import type { ReactNode } from 'react';
import KnowledgePage from '../../src/app/workspace/knowledge/knowledge-page';
import { KnowledgeApiContext } from '../../src/app/workspace/knowledge/knowledge-api';
import KnowledgeSliceMethodConfigPage from '../../src/app/workspace/knowledge/knowledge-slice-method-config-page';
import KnowledgeUnitAddPage from '../../src/app/workspace/knowledge/knowledge-unit-add-page';
import KnowledgeUnitAddTablePage from '../../src/app/workspace/knowledge/knowledge-unit-add-table-page';
import KnowledgeUnitDetailsPage from '../../src/app/workspace/knowledge/knowledge-unit-details-page';
import KnowledgeUnitPage from '../../src/app/workspace/knowledge/knowledge-unit-page';
import type { MemoryKnowledgeApi } from '../../src/app/workspace/knowledge/memory-knowledge-api';
import { ResourceStory } from './resource-story';

const ws = '/operation/workspace/:workspace_id';

/** Every knowledge screen in a memory router over the in-memory API, starting at `start`. */
export function KnowledgeStory({ api, start }: { api: MemoryKnowledgeApi; start: string }) {
  const wrap = (el: ReactNode) => <KnowledgeApiContext value={api}>{el}</KnowledgeApiContext>;
  return (
    <ResourceStory
      start={start}
      routes={[
        { path: `${ws}/knowledge`, element: wrap(<KnowledgePage />) },
        { path: `${ws}/knowledge-unit`, element: wrap(<KnowledgeUnitPage />) },
        { path: `${ws}/knowledge-unit-add`, element: wrap(<KnowledgeUnitAddPage />) },
        { path: `${ws}/knowledge-unit-add-table`, element: wrap(<KnowledgeUnitAddTablePage />) },
        { path: `${ws}/knowledge-slice-method-config`, element: wrap(<KnowledgeSliceMethodConfigPage />) },
        { path: `${ws}/knowledge-unit-details`, element: wrap(<KnowledgeUnitDetailsPage />) },
      ]}
    />
  );
}
