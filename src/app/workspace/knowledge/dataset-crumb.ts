/**
 * The knowledge base's step in the breadcrumb of its unit, add and segmentation pages (issue 28): its
 * name, linking back to its units, so every page under a knowledge base has a way back to it.
 */
import { useEffect, useState } from 'react';
import { useCrumbName } from '../../shell/route-handle';
import { useKnowledgeApi } from './knowledge-api';
import { knowledgePaths } from './knowledge-nav';

/** Names the `dataset` breadcrumb slot; `known` skips the fetch when the page has the name already. */
export function useDatasetCrumb(workspaceId: string, datasetId: string, known?: string): void {
  const api = useKnowledgeApi();
  const [name, setName] = useState('');
  useEffect(() => {
    if (known !== undefined || !datasetId) return;
    let live = true;
    // A failure is the page's to report (it loads the same knowledge base); the step just stays out.
    api.getDataset(workspaceId, datasetId).then((d) => live && setName(d.name), () => undefined);
    return () => {
      live = false;
    };
  }, [api, workspaceId, datasetId, known]);
  const label = known ?? name;
  useCrumbName('dataset', label ? { label, href: knowledgePaths.units(workspaceId, datasetId) } : null);
}
