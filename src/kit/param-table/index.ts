export { ParamTable, type ParamTableProps } from './param-table';
export * from './logic';
