import { useContext, useEffect, useState } from 'react';
import { WorkspaceResourcesContext } from '../widgets/context';

/**
 * The workspace's knowledge bases for the checklist (a node naming a base the workspace does not
 * have is an error: ids from an imported Dify file). Loaded once per editor; undefined while
 * unknown or without a source (no knowledge check then).
 */
export function useKnowledgeBaseList(): readonly { id: string }[] | undefined {
  const source = useContext(WorkspaceResourcesContext).knowledgeBases;
  const [bases, setBases] = useState<readonly { id: string }[]>();
  useEffect(() => {
    if (!source) return;
    const abort = new AbortController();
    source.list({ signal: abort.signal }).then(
      (rows) => {
        if (!abort.signal.aborted) setBases(rows.map((r) => ({ id: r.id })));
      },
      () => undefined,
    );
    return () => abort.abort();
  }, [source]);
  return bases;
}
