/**
 * The page of every route whose screen comes in a later release: the route's translated title, the
 * layout's navigation and breadcrumb around it, and an empty state saying the part is on its way.
 */
import { ComingSoon } from '../shell/page';
import { usePageTitle } from '../shell/route-handle';

export default function SkeletonPage() {
  return <ComingSoon title={usePageTitle()} />;
}
