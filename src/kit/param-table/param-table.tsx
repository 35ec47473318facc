import { ChevronRight, Plus, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { BODY_SUBTYPES, DEFAULT_BODY_SUBTYPE, type ParamTableKind } from '../../../schemas/parameter';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { Tooltip } from '../../ui/tooltip';
import { columnLabelKey, isBoolColumn, ParamCell } from './cells';
import {
  addRow,
  allowedDataTypes,
  canDelete,
  columnsFor,
  createBodyDraft,
  deleteRow,
  findRow,
  fromSaved,
  isLocked,
  isTreeScope,
  issuesByCell,
  showAddButton,
  subtypeOfSaved,
  switchSubtype,
  toggleExpanded,
  toSaved,
  updateRow,
  validateRows,
  visibleRows,
  type BodyDraft,
  type BodySubtype,
  type ColumnId,
  type LocalRow,
  type ParamIssue,
  type ParamRow,
  type ParamScope,
  type RowField,
} from './logic';
import s from './param-table.module.css';

export interface ParamTableProps {
  /** Which table: request parameters, headers, request body or response body. */
  kind: ParamTableKind;
  /** The saved rows (no ids). Body rows carry their request_subtype, which picks the subtype shown. */
  value: readonly ParamRow[] | undefined;
  /** Called on every edit with the rows to save (ids stripped, body rows with request_type and subtype). */
  onChange?: (value: ParamRow[]) => void;
  /** Body subtype when `value` is empty (default form-data). */
  defaultSubtype?: BodySubtype;
  /** Called when the body subtype is switched (the rows of the new subtype follow through onChange). */
  onSubtypeChange?: (subtype: BodySubtype) => void;
  /** Called whenever the validation issues change (spec 5: rows are revalidated on each edit). */
  onIssuesChange?: (issues: ParamIssue[]) => void;
  /** Show every issue, not only those of rows edited so far (pass the form's "submitted" flag). */
  showAllErrors?: boolean;
  readOnly?: boolean;
  /** Accessible name of the table; defaults to the table kind's name. */
  'aria-label'?: string;
  className?: string;
}

interface State {
  kind: ParamTableKind;
  draft: BodyDraft;
  /** The value the draft was made from or last emitted, to tell outside changes from our own. */
  source: readonly ParamRow[];
  touched: ReadonlySet<string>;
}

const EMPTY: readonly ParamRow[] = [];
const same = (a: readonly ParamRow[], b: readonly ParamRow[]) => a === b || JSON.stringify(a) === JSON.stringify(b);

function scopeOf(kind: ParamTableKind, subtype: BodySubtype): ParamScope {
  return kind === 'body' ? { kind, subtype } : { kind };
}

function load(kind: ParamTableKind, value: readonly ParamRow[], fallback: BodySubtype): State {
  const subtype = kind === 'body' ? subtypeOfSaved(value, fallback) : fallback;
  return { kind, draft: createBodyDraft(subtype, fromSaved(scopeOf(kind, subtype), value)), source: value, touched: new Set() };
}

/** Column widths in px; the column without one takes the remaining space. */
const WIDTHS: Partial<Record<ColumnId | 'actions', number>> = {
  param_name: 152,
  param_key: 168,
  request_type: 96,
  data_type: 120,
  is_array: 68,
  is_not_null: 68,
  default_value: 112,
  optional_values: 152,
  description: 160,
  param_value: 240,
  actions: 72,
};
/** The column that stretches. */
const FLEX: Record<ParamTableKind, ColumnId> = { params: 'description', body: 'description', response: 'description', headers: 'param_value' };
const INDENT_PX = 20;
const TREE_EXTRA_PX = 32;

/**
 * The editor of a tool function's API parameters (spec 3 "Parameter row", 4, 5): a tree table for
 * request parameters, headers, the request body (form-data / x-www-form-urlencoded / json) or the
 * response body. Controlled: `value` in, `onChange` out with the saved rows; validation issues out
 * through `onIssuesChange` and shown under their cells.
 *
 * @example
 * <Controller name="request_body" control={control} render={({ field, formState }) => (
 *   <ParamTable kind="body" value={field.value} onChange={field.onChange} showAllErrors={formState.isSubmitted} />
 * )} />
 * // form schema: request_body: paramTableSchema({ kind: 'body', subtype })
 */
export function ParamTable({
  kind,
  value,
  onChange,
  defaultSubtype = DEFAULT_BODY_SUBTYPE,
  onSubtypeChange,
  onIssuesChange,
  showAllErrors = false,
  readOnly = false,
  'aria-label': ariaLabel,
  className,
}: ParamTableProps) {
  const { t } = useTranslation('param');
  const incoming = value ?? EMPTY;
  const [state, setState] = useState<State>(() => load(kind, incoming, defaultSubtype));
  let current = state;
  if (kind !== state.kind || !same(incoming, state.source)) {
    // The value changed from outside (reset, reload): start again from it.
    current = load(kind, incoming, state.draft.subtype);
    setState(current);
  }
  const { draft, touched } = current;
  const scope = scopeOf(kind, draft.subtype);
  const rows = draft.rows;

  const issues = useMemo(() => validateRows(scopeOf(kind, draft.subtype), rows), [kind, draft.subtype, rows]);
  const cells = useMemo(() => issuesByCell(issues), [issues]);
  // Reported when they change, not on every render (a new array each validation).
  const issuesKey = JSON.stringify(issues);
  const latest = useRef({ issues, onIssuesChange });
  useEffect(() => {
    latest.current = { issues, onIssuesChange };
  });
  useEffect(() => {
    latest.current.onIssuesChange?.(latest.current.issues);
  }, [issuesKey]);

  const commit = (next: BodyDraft, touchedId?: string) => {
    const saved = toSaved(scopeOf(kind, next.subtype), next.rows);
    const nextTouched = touchedId && !touched.has(touchedId) ? new Set([...touched, touchedId]) : touched;
    setState({ kind, draft: next, source: saved, touched: nextTouched });
    onChange?.(saved);
  };
  const setRows = (next: LocalRow[], touchedId?: string) => commit({ ...draft, rows: next }, touchedId);
  const patch = (id: string, p: Partial<Pick<LocalRow, RowField>>) => setRows(updateRow(scope, rows, id, p), id);
  const onSwitch = (next: string) => {
    commit(switchSubtype(draft, next as BodySubtype));
    onSubtypeChange?.(next as BodySubtype);
  };

  const columns = columnsFor(scope);
  const typeOptions = allowedDataTypes(scope);
  const tree = isTreeScope(scope);
  // The tree column also holds the indentation and the toggle.
  const widthOf = (c: ColumnId | 'actions') =>
    c === FLEX[kind] ? undefined : tree && c === columns[0] ? (WIDTHS[c] ?? 0) + TREE_EXTRA_PX : WIDTHS[c];
  const minWidth = [...columns, ...(readOnly ? [] : (['actions'] as const))].reduce((sum, c) => sum + (widthOf(c) ?? 160), 0);
  const visible = visibleRows(rows);
  const label = ariaLabel ?? t(`tableLabel.${kind}`);

  const table = (
    <Table
      size="sm"
      striped={false}
      aria-label={label}
      data-readonly={readOnly || undefined}
      className={s.table}
      style={{ minWidth } as CSSProperties}
    >
      <colgroup>
        {columns.map((c) => (
          <col key={c} style={{ width: widthOf(c) }} />
        ))}
        {!readOnly && <col style={{ width: WIDTHS.actions }} />}
      </colgroup>
      <TableHeader>
        <TableRow>
          {columns.map((c) => (
            <TableHead key={c} className={cn(s.head, isBoolColumn(c) && s.center)}>
              {t(columnLabelKey(scope, c))}
            </TableHead>
          ))}
          {!readOnly && <TableHead className={s.head}>{t('columns.actions')}</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {visible.length === 0 ? (
          <TableRow>
            <TableCell colSpan={columns.length + (readOnly ? 0 : 1)} className={s.empty}>
              {t('empty')}
            </TableCell>
          </TableRow>
        ) : (
          visible.map(({ row, depth, isParent }) => {
            const rowIssues = showAllErrors || touched.has(row.id) ? cells.get(row.id) : undefined;
            const deletable = canDelete(scope, rows, row.id);
            const at = findRow(rows, row.id)!;
            const deleteHint = deletable
              ? t('actions.delete')
              : at.parent === null
                ? t('hints.cannotDeleteFirst')
                : t('hints.cannotDeleteOnlyChild');
            return (
              <TableRow key={row.id} data-row-id={row.id} data-depth={depth}>
                {columns.map((c, ci) => {
                  const lockField = c === 'param_key' || c === 'data_type' ? c : undefined;
                  const locked = !!lockField && isLocked(scope, rows, row.id, lockField);
                  const cell = (
                    <ParamCell
                      scope={scope}
                      row={row}
                      column={c}
                      locked={locked}
                      lockHint={c === 'param_key' ? t('hints.lockedKey') : t('hints.lockedType')}
                      error={c === 'param_key' || c === 'data_type' || c === 'param_value' ? rowIssues?.[c] : undefined}
                      readOnly={readOnly}
                      typeOptions={typeOptions}
                      onPatch={(p) => patch(row.id, p)}
                    />
                  );
                  return (
                    <TableCell key={c} className={s.cell}>
                      {tree && ci === 0 ? (
                        <div className={s.treeCell}>
                          {Array.from({ length: depth }, (_, i) => (
                            <span key={i} className={s.indent} style={{ width: INDENT_PX - 4 }} aria-hidden="true" />
                          ))}
                          {isParent ? (
                            <button
                              type="button"
                              className={s.toggle}
                              aria-expanded={!!row.expanded}
                              aria-label={row.expanded ? t('actions.collapse') : t('actions.expand')}
                              onClick={() => setRows(toggleExpanded(rows, row.id))}
                            >
                              <ChevronRight aria-hidden="true" />
                            </button>
                          ) : (
                            <span className={s.toggleSpacer} aria-hidden="true" />
                          )}
                          {cell}
                        </div>
                      ) : (
                        cell
                      )}
                    </TableCell>
                  );
                })}
                {!readOnly && (
                  <TableCell className={s.cell}>
                    <div className={s.actions}>
                      <Tooltip content={isParent ? t('actions.addChild') : t('actions.insertAfter')}>
                        <Button
                          size="sm"
                          variant="ghost"
                          iconOnly
                          aria-label={isParent ? t('actions.addChild') : t('actions.insertAfter')}
                          onClick={() => setRows(addRow(scope, rows, row.id).rows)}
                        >
                          <Plus />
                        </Button>
                      </Tooltip>
                      {deletable ? (
                        <Tooltip content={deleteHint}>
                          <Button
                            size="sm"
                            variant="ghost"
                            iconOnly
                            aria-label={t('actions.delete')}
                            onClick={() => setRows(deleteRow(scope, rows, row.id))}
                          >
                            <Trash2 />
                          </Button>
                        </Tooltip>
                      ) : (
                        // A disabled button gets no pointer events: the wrapper carries the hint.
                        <Tooltip content={deleteHint}>
                          <span className={s.disabledWrap} tabIndex={0}>
                            <Button size="sm" variant="ghost" iconOnly aria-label={t('actions.delete')} disabled>
                              <Trash2 />
                            </Button>
                          </span>
                        </Tooltip>
                      )}
                    </div>
                  </TableCell>
                )}
              </TableRow>
            );
          })
        )}
      </TableBody>
    </Table>
  );

  const addButton =
    !readOnly && showAddButton(scope, rows) ? (
      <Button size="sm" variant="secondary" icon={<Plus />} className={s.addButton} onClick={() => setRows(addRow(scope, rows).rows)}>
        {t('actions.add')}
      </Button>
    ) : null;

  if (kind !== 'body') {
    return (
      <div data-slot="param-table" data-kind={kind} className={cn(s.root, className)}>
        {table}
        {addButton}
      </div>
    );
  }
  return (
    <Tabs
      data-slot="param-table"
      data-kind={kind}
      value={draft.subtype}
      onValueChange={onSwitch}
      className={cn(s.root, className)}
    >
      <div className={s.toolbar}>
        <span className={s.toolbarLabel}>{t('subtypes.label')}</span>
        {readOnly ? (
          <Badge>{t(`subtypes.${draft.subtype}`)}</Badge>
        ) : (
          <TabsList variant="segmented" aria-label={t('subtypes.label')}>
            {BODY_SUBTYPES.map((st) => (
              <TabsTrigger key={st} value={st}>
                {t(`subtypes.${st}`)}
              </TabsTrigger>
            ))}
          </TabsList>
        )}
      </div>
      <TabsContent value={draft.subtype} className={s.root}>
        {/* The two URL body types say where their fields go (spec 9): nothing is sent as a body. */}
        {(draft.subtype === 'query_string' || draft.subtype === 'path') && <p className={s.subtypeHint}>{t(`subtypeHints.${draft.subtype}`)}</p>}
        {table}
        {addButton}
      </TabsContent>
    </Tabs>
  );
}
