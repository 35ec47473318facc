export { SchemaTable, type CellContext, type RowAction, type SchemaTableProps } from './schema-table';
export { buildColumns, cellText, EMPTY_CELL, formatDateTime, type BuildColumnsOptions, type ColumnSpec } from './columns';
export { ariaSort, clampPage, DEFAULT_PAGE_SIZE, nextSort, PAGE_SIZES, pageCount, pageToReload, showPager, withPageSize, type PageState, type SortState } from './pager';
export { usePagedList, type PagedAnswer, type PagedList } from './use-paged-list';
